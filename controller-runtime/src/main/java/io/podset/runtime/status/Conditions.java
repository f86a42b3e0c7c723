package io.podset.runtime.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Conditions ({@code metav1.Condition}) in a status, as Go's {@code meta.SetStatusCondition} keeps
 * them: one per type, and a {@code lastTransitionTime} that moves only when the status flips, so
 * that writing the same condition again changes nothing (and costs no status write).
 */
public final class Conditions {

  /** The API's rule for a condition reason. */
  private static final Pattern REASON = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");

  /** The API's rule for a condition type (a qualified name). */
  private static final Pattern TYPE =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
              + "[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  private Conditions() {}

  /**
   * A condition stamped at {@code now} (truncated to seconds, as the API stores it).
   *
   * @param observedGeneration the generation of the object the condition was computed from, or null
   * @throws IllegalArgumentException if {@code type} or {@code reason} breaks the API's rules
   */
  public static Condition of(
      String type,
      boolean status,
      String reason,
      @Nullable String message,
      @Nullable Long observedGeneration,
      Instant now) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(now, "now");
    if (type.length() > 316 || !TYPE.matcher(type).matches()) {
      throw new IllegalArgumentException(
          "condition type must be a qualified name like 'Ready', got '" + type + "'");
    }
    if (reason.length() > 1024 || !REASON.matcher(reason).matches()) {
      throw new IllegalArgumentException(
          "condition reason must be UpperCamelCase letters, digits, '_', ',' or ':', got '"
              + reason
              + "'");
    }
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status ? "True" : "False")
        .withReason(reason)
        .withMessage(message == null ? "" : message)
        .withObservedGeneration(observedGeneration)
        .withLastTransitionTime(
            DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS)))
        .build();
  }

  /**
   * {@code conditions} with {@code condition} in place of the one of its type (appended when there
   * is none). When the status is the same as before, the previous {@code lastTransitionTime} is
   * kept. Returns a new list; {@code conditions} (null for none) is not changed.
   */
  public static List<Condition> set(@Nullable List<Condition> conditions, Condition condition) {
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(condition.getType(), "condition.type");
    List<Condition> result = new ArrayList<>();
    boolean replaced = false;
    for (Condition existing : conditions == null ? List.<Condition>of() : conditions) {
      if (!condition.getType().equals(existing.getType())) {
        result.add(existing);
        continue;
      }
      if (replaced) {
        continue; // a duplicate of the type: dropped
      }
      replaced = true;
      Condition next = new ConditionBuilder(condition).build();
      if (Objects.equals(existing.getStatus(), condition.getStatus())
          && existing.getLastTransitionTime() != null) {
        next.setLastTransitionTime(existing.getLastTransitionTime());
      }
      result.add(next);
    }
    if (!replaced) {
      result.add(new ConditionBuilder(condition).build());
    }
    return result;
  }

  /** The condition of {@code type}, if any. */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    Objects.requireNonNull(type, "type");
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** True when the condition of {@code type} is present with status {@code True}. */
  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /** {@code conditions} without the one of {@code type}; a new list. */
  public static List<Condition> remove(List<Condition> conditions, String type) {
    Objects.requireNonNull(type, "type");
    List<Condition> result = new ArrayList<>();
    if (conditions != null) {
      conditions.stream().filter(c -> !type.equals(c.getType())).forEach(result::add);
    }
    return result;
  }
}
