package io.podset.runtime.recorder;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Records Kubernetes Events about an object (shown by {@code kubectl describe}).
 *
 * <p>Recording never blocks the caller and never throws: events are best-effort and written in the
 * background, off the caller's path. What reaches the API server:
 *
 * <ul>
 *   <li>Records about the same object with the same type and reason within a short window (the
 *       manager's recorder: one second) become one Event write.
 *   <li>When they all have the same message, the Event's {@code count} is the number of records,
 *       and a later window with that message raises the count of the same Event instead of creating
 *       another.
 *   <li>When their messages differ, one Event tells them all, with count 1: messages of the form
 *       {@code "<head>: <items>"} sharing the head list their items ({@code "Created pods: a"} and
 *       {@code "Created pods: b, c"} read {@code "Created pods: a, b, c"}), others are joined with
 *       {@code "; "}; at most 1024 characters, ending with how many parts were left out.
 *   <li>API writes are rate-limited per object; records made while an object is throttled are kept
 *       and written together once it may write again.
 * </ul>
 *
 * <p>So a reconciler records what it did as it does it (one record per batch of pods, say) and a
 * user still sees one readable line per step. Thread-safe.
 */
public interface EventRecorder {

  /** The event's severity. */
  enum Type {
    /** Expected progress, e.g. a pod created. */
    Normal,
    /** Something the user may need to act on, e.g. a create refused by a quota. */
    Warning
  }

  /**
   * Records an event about {@code regarding}.
   *
   * @param reason a short UpperCamelCase cause, e.g. {@code SuccessfulCreate}
   * @param message a human-readable sentence; {@code "<head>: <items>"} when it lists what was
   *     done, so that records close in time combine into one list
   */
  void record(HasMetadata regarding, Type type, String reason, String message);

  /** Records a {@link Type#Normal} event. */
  default void normal(HasMetadata regarding, String reason, String message) {
    record(regarding, Type.Normal, reason, message);
  }

  /** Records a {@link Type#Warning} event. */
  default void warning(HasMetadata regarding, String reason, String message) {
    record(regarding, Type.Warning, reason, message);
  }

  /** A recorder that drops everything, for tests that do not look at events. */
  static EventRecorder noop() {
    return (regarding, type, reason, message) -> {};
  }
}
