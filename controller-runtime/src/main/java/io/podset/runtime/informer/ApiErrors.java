package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.informer.transport.ListerWatcher;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Classifies failures reported by a {@link ListerWatcher}, as client-go's reflector does. */
final class ApiErrors {

  private ApiErrors() {}

  /** 410 Gone / reason Expired: the resourceVersion or continue token is no longer available. */
  static boolean isGone(Throwable error) {
    KubernetesClientException e = clientException(error);
    if (e == null) {
      return false;
    }
    return e.getCode() == 410 || "Expired".equals(reason(e)) || "Gone".equals(reason(e));
  }

  /**
   * The server has not reached the requested resourceVersion yet ("Too large resource version").
   */
  static boolean isTooLargeResourceVersion(Throwable error) {
    KubernetesClientException e = clientException(error);
    if (e == null || e.getStatus() == null) {
      return false;
    }
    Status status = e.getStatus();
    if (status.getDetails() != null) {
      List<StatusCause> causes = status.getDetails().getCauses();
      if (causes != null) {
        for (StatusCause cause : causes) {
          if ("ResourceVersionTooLarge".equals(cause.getReason())) {
            return true;
          }
        }
      }
    }
    String message = status.getMessage();
    return message != null && message.contains("Too large resource version");
  }

  /**
   * Whether a failed or broken watch should be re-opened from the same resourceVersion (after a
   * backoff) rather than followed by a relist: connection failures, 429, 5xx.
   */
  static boolean isRetriableWatchError(Throwable error) {
    KubernetesClientException e = clientException(error);
    if (e == null) {
      return true; // not an API answer at all: a connection problem
    }
    int code = e.getCode();
    return code <= 0 || code == 429 || code >= 500;
  }

  /**
   * How long the server asked the client to wait before retrying ({@code details.retryAfterSeconds}
   * of its Status, as kube-apiserver sends with 429 and some 5xx answers), or null when it did not
   * say.
   */
  static @Nullable Duration retryAfter(Throwable error) {
    return ApiFailures.retryAfter(error).orElse(null);
  }

  /** Whether a streaming list was refused because the server does not support it. */
  static boolean isStreamingUnsupported(Throwable error) {
    KubernetesClientException e = clientException(error);
    if (e == null) {
      return false;
    }
    int code = e.getCode();
    return code == 400 || code == 403 || code == 415 || code == 422 || code == 501;
  }

  private static @Nullable KubernetesClientException clientException(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        return e;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  private static @Nullable String reason(KubernetesClientException e) {
    return e.getStatus() == null ? null : e.getStatus().getReason();
  }
}
