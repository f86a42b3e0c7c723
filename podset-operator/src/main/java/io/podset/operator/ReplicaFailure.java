package io.podset.operator;

import java.util.Objects;

/**
 * Why pods could not be created, deleted or updated, for the {@code ReplicaFailure} condition.
 *
 * @param reason a CamelCase reason: {@value #INVALID_SPEC}, {@value #FAILED_CREATE}, {@value
 *     #FAILED_DELETE} or {@value #FAILED_UPDATE}
 * @param message a human-readable sentence naming the pod or field and the server's answer
 * @param cause the failed write's exception (the server's answer), or null for an invalid spec; it
 *     lets the controller tell a failure a retry cures (429, 5xx, conflict) from the others
 */
public record ReplicaFailure(String reason, String message, Throwable cause) {

  /** The PodSet cannot work as written. */
  public static final String INVALID_SPEC = "InvalidSpec";

  /** A pod create was refused (quota, admission, invalid pod, server error). */
  public static final String FAILED_CREATE = "FailedCreate";

  /** A pod delete failed. */
  public static final String FAILED_DELETE = "FailedDelete";

  /** A pod patch (adoption, release, image update) failed. */
  public static final String FAILED_UPDATE = "FailedUpdate";

  /**
   * @throws NullPointerException if an argument is null
   */
  public ReplicaFailure {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  /** A failure without an exception behind it (an invalid spec). */
  public ReplicaFailure(String reason, String message) {
    this(reason, message, null);
  }
}
