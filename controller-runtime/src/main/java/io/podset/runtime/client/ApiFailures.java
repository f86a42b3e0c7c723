package io.podset.runtime.client;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

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

  /**
   * One line for logs, Events and conditions: the failure's message, then each cause's message it
   * does not already contain (an API answer by its server message, not fabric8's request dump),
   * then {@code (HTTP <code> <reason>)} of the first API answer in the chain unless the text
   * already names that status. Completion and execution wrappers are skipped.
   */
  public static String describe(Throwable failure) {
    Objects.requireNonNull(failure, "failure");
    Throwable top = failure;
    while ((top instanceof CompletionException || top instanceof ExecutionException)
        && top.getCause() != null) {
      top = top.getCause();
    }
    StringBuilder text = new StringBuilder(messageOf(top));
    KubernetesClientException answer = top instanceof KubernetesClientException k ? k : null;
    for (Throwable cause = top.getCause();
        cause != null && cause != top;
        cause = cause == cause.getCause() ? null : cause.getCause()) {
      if (answer == null && cause instanceof KubernetesClientException k) {
        answer = k;
      }
      String message = cause.getMessage() == null ? null : messageOf(cause);
      if (message != null && !text.toString().contains(message)) {
        text.append(": ").append(message);
      }
    }
    if (answer != null && answer.getCode() > 0) {
      String status = "HTTP " + answer.getCode();
      if (!text.toString().contains(status)) {
        String reason = answer.getStatus() == null ? null : answer.getStatus().getReason();
        text.append(" (").append(status);
        if (reason != null && !reason.isEmpty()) {
          text.append(' ').append(reason);
        }
        text.append(')');
      }
    }
    return text.toString();
  }

  /** An API answer's server message, else the exception's message, else its class. */
  private static String messageOf(Throwable failure) {
    if (failure instanceof KubernetesClientException k && k.getStatus() != null) {
      String message = k.getStatus().getMessage();
      if (message != null && !message.isEmpty()) {
        return message;
      }
    }
    return failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage();
  }

  /**
   * Whether a retry is expected to cure {@code failure}: a conflict (409), throttling (429), server
   * error (5xx) or connection failure (no answer, an {@link IOException} behind it) in the chain,
   * judged by its first API answer. Other failures (a refusal, an invalid object, a bug) need a
   * change first.
   */
  public static boolean isTransient(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        int code = e.getCode();
        return code == 409 || code == 429 || code >= 500 || (code <= 0 && hasIoCause(e));
      }
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  /**
   * How long the server asked the client to wait before trying again, when it did: {@code
   * details.retryAfterSeconds} of the Status of the first API answer in {@code failure}'s chain, as
   * kube-apiserver sends with 429 (and some 5xx) answers. Empty for any other failure.
   */
  public static Optional<Duration> retryAfter(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        int code = e.getCode();
        if ((code != 429 && code < 500) || e.getStatus() == null) {
          return Optional.empty();
        }
        StatusDetails details = e.getStatus().getDetails();
        Integer seconds = details == null ? null : details.getRetryAfterSeconds();
        return seconds == null || seconds <= 0
            ? Optional.empty()
            : Optional.of(Duration.ofSeconds(seconds));
      }
    }
    return Optional.empty();
  }

  private static boolean hasIoCause(Throwable error) {
    for (Throwable t = error.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
