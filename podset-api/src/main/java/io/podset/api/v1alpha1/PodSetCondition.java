package io.podset.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One observation about a {@link PodSet} in {@code status.conditions}, as Kubernetes conditions
 * are: a {@link #type()}, a {@link #status()} of {@value #TRUE}, {@value #FALSE} or {@value
 * #UNKNOWN}, a machine-readable {@link #reason()} in CamelCase, a human-readable {@link
 * #message()}, and the time the status last changed.
 *
 * <p>The PodSet operator sets three types: {@value #AVAILABLE} (all wanted pods are available),
 * {@value #PROGRESSING} (pods are being created, deleted or updated) and {@value #REPLICA_FAILURE}
 * (a create or delete failed, or the PodSet cannot work as written; the message says why).
 *
 * @param type the condition type, such as {@value #AVAILABLE}
 * @param status {@value #TRUE}, {@value #FALSE} or {@value #UNKNOWN}
 * @param reason a CamelCase reason for the status, or null
 * @param message a human-readable explanation, or null
 * @param lastTransitionTime when {@code status} last changed, RFC 3339 in UTC with whole seconds
 *     (as Kubernetes writes {@code metav1.Time}), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodSetCondition(
    @JsonPropertyDescription("The condition type: Available, Progressing or ReplicaFailure.")
        @Required
        String type,
    @JsonPropertyDescription("True, False or Unknown.") @Required @Pattern("^(True|False|Unknown)$")
        String status,
    @JsonPropertyDescription("A CamelCase reason for the condition's last transition.")
        String reason,
    @JsonPropertyDescription("A human-readable message about the last transition.") String message,
    @JsonPropertyDescription("When the status last changed (RFC 3339).")
        String lastTransitionTime) {

  /** Type: all wanted pods exist and are available. */
  public static final String AVAILABLE = "Available";

  /** Type: pods are being created, deleted or brought to the current template. */
  public static final String PROGRESSING = "Progressing";

  /** Type: pods could not be created or deleted, or the PodSet cannot work as written. */
  public static final String REPLICA_FAILURE = "ReplicaFailure";

  /** Status: the condition holds. */
  public static final String TRUE = "True";

  /** Status: the condition does not hold. */
  public static final String FALSE = "False";

  /** Status: unknown whether the condition holds. */
  public static final String UNKNOWN = "Unknown";

  /**
   * A condition that changed to {@code status} at {@code now} (truncated to whole seconds).
   *
   * @throws NullPointerException if {@code type}, {@code status} or {@code now} is null
   * @throws IllegalArgumentException if {@code type} is blank or {@code status} is not {@value
   *     #TRUE}, {@value #FALSE} or {@value #UNKNOWN}
   */
  public static PodSetCondition of(
      String type, String status, String reason, String message, Instant now) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(now, "now");
    if (type.isBlank()) {
      throw new IllegalArgumentException("condition type must not be blank, got '" + type + "'");
    }
    if (!TRUE.equals(status) && !FALSE.equals(status) && !UNKNOWN.equals(status)) {
      throw new IllegalArgumentException(
          "condition status must be True, False or Unknown, got '" + status + "'");
    }
    return new PodSetCondition(type, status, reason, message, formatTime(now));
  }

  /** Whether {@link #status()} is {@value #TRUE}. */
  @JsonIgnore
  public boolean isTrue() {
    return TRUE.equals(status);
  }

  /**
   * Formats {@code time} as Kubernetes writes timestamps: RFC 3339 in UTC, whole seconds, such as
   * {@code 2024-05-01T12:00:00Z}.
   *
   * @throws NullPointerException if {@code time} is null
   */
  public static String formatTime(Instant time) {
    Objects.requireNonNull(time, "time");
    return time.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
