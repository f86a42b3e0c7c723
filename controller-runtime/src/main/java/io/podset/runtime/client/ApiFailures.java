package io.podset.runtime.client;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The exception fabric8's typed operations throw for a refused request, for code that talks to the
 * API server through the client's HTTP client directly: callers keep telling failures apart by
 * {@link KubernetesClientException#getCode()} and the server's {@link Status} (reason, causes,
 * retry-after), whichever path made the request.
 */
public final class ApiFailures {

  private ApiFailures() {}

  /**
   * A refused {@code method} on {@code url}: the server's Status if {@code body} is one, else a
   * Status made from {@code code} and the body's text.
   */
  public static KubernetesClientException refused(
      KubernetesSerialization serialization, String method, String url, int code, byte[] body) {
    Objects.requireNonNull(serialization, "serialization");
    String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
    Status status = null;
    try {
      Status parsed = serialization.unmarshal(text, Status.class);
      if (parsed != null && "Status".equals(parsed.getKind())) {
        status = parsed;
      }
    } catch (RuntimeException e) {
      // not a Status: described from the code and the text below
    }
    if (status == null) {
      status = new StatusBuilder().withCode(code).withMessage(text).build();
    }
    if (status.getCode() == null) {
      status.setCode(code);
    }
    String message =
        "Failure executing: "
            + method
            + " at: "
            + url
            + ". Message: "
            + (status.getMessage() == null ? text : status.getMessage())
            + ".";
    return new KubernetesClientException(message, code, status);
  }
}
