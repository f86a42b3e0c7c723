package io.podset.runtime.event;

import java.util.Objects;

/**
 * A change the informer saw on one object.
 *
 * @param <T> the object type
 */
public sealed interface Event<T> permits Event.Added, Event.Updated, Event.Deleted {

  /** The object after the change (for a deletion, its last known state). */
  T object();

  /** A short name for logs and metrics: {@code add}, {@code update} or {@code delete}. */
  String kind();

  /** The object appeared in the cache (created, or seen for the first time after a relist). */
  record Added<T>(T object) implements Event<T> {
    /**
     * @throws NullPointerException if {@code object} is null
     */
    public Added {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String kind() {
      return "add";
    }
  }

  /**
   * The object changed, or a periodic resync replayed it (then both states have the same
   * resourceVersion).
   */
  record Updated<T>(T oldObject, T object) implements Event<T> {
    /**
     * @throws NullPointerException if either state is null
     */
    public Updated {
      Objects.requireNonNull(oldObject, "oldObject");
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String kind() {
      return "update";
    }
  }

  /**
   * The object was deleted. When {@code finalStateUnknown} is true the deletion was inferred from a
   * relist and {@code object} is the last state the cache had.
   */
  record Deleted<T>(T object, boolean finalStateUnknown) implements Event<T> {
    /**
     * @throws NullPointerException if {@code object} is null
     */
    public Deleted {
      Objects.requireNonNull(object, "object");
    }

    @Override
    public String kind() {
      return "delete";
    }
  }
}
