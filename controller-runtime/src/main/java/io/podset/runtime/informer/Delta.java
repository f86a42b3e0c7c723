package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * One change of one object.
 *
 * <p>A {@link DeltaType#DELETED} delta with {@code finalStateUnknown} is client-go's {@code
 * DeletedFinalStateUnknown} tombstone: the object vanished while no watch was observing it (found
 * missing by a relist), and {@code object} is the last state the cache knew, not its final state.
 *
 * @param type what happened
 * @param object the object's new state (its last known state for a deletion)
 * @param finalStateUnknown true only for a tombstone
 */
record Delta<T extends HasMetadata>(DeltaType type, T object, boolean finalStateUnknown) {

  Delta {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
    if (finalStateUnknown && type != DeltaType.DELETED) {
      throw new IllegalArgumentException("only a DELETED delta can be a tombstone: " + type);
    }
  }

  static <T extends HasMetadata> Delta<T> of(DeltaType type, T object) {
    return new Delta<>(type, object, false);
  }

  static <T extends HasMetadata> Delta<T> tombstone(T lastKnown) {
    return new Delta<>(DeltaType.DELETED, lastKnown, true);
  }
}
