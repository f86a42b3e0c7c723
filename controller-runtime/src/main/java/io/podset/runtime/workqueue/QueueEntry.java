package io.podset.runtime.workqueue;

/**
 * The state of one key inside a {@link FifoWorkQueue}; it exists exactly while the key is dirty or
 * processing. Not thread-safe: every field is guarded by the owning queue's lock.
 */
final class QueueEntry<K> {
  final K key;

  /** Added since it was last handed out. */
  boolean dirty;

  /** Handed out and not done yet. */
  boolean processing;

  /** Next in the queue's ready list (used only while dirty and not processing). */
  QueueEntry<K> next;

  /** Neighbours in the {@link BusyList} (metrics only, used only while processing). */
  QueueEntry<K> busyPrev;

  QueueEntry<K> busyNext;

  /** Clock time of the add that made the key dirty (metrics only). */
  long addedAt;

  /** Clock time processing started (metrics only). */
  long startedAt;

  QueueEntry(K key) {
    this.key = key;
  }
}
