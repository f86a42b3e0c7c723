package io.podset.runtime.event;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Records Kubernetes Events about an object (shown by {@code kubectl describe}).
 *
 * <p>Recording never blocks the caller and never throws: events are best-effort, sent in the
 * background, aggregated (an identical event repeated updates the existing Event's count) and
 * dropped when an object exceeds its rate limit. Thread-safe.
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
   * @param message a human-readable sentence; repeats with the same type, reason and message
   *     aggregate
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
