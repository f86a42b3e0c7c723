package io.podset.runtime.informer;

/** What happened to an object, as recorded in a {@link DeltaFifo}. */
enum DeltaType {
  /** Created (a watch ADDED event). */
  ADDED,
  /** Changed (a watch MODIFIED event). */
  UPDATED,
  /** Removed; the object is its last known state, possibly a tombstone. */
  DELETED,
  /** Present in a full relist; may or may not have changed. */
  REPLACED,
  /** A periodic resync of a cached object that has nothing else queued. */
  SYNC
}
