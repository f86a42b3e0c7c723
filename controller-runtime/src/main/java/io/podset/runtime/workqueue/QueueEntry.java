package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one key inside a {@link FifoWorkQueue}; it exists exactly while the key is dirty or
 * processing, and is never reused for another key. Every field is guarded by the owning queue's
 * lock, except that {@link EntryTable#find} may read {@link #key}, {@link #hash} and {@link
 * #hashNext} without it.
 */
final class QueueEntry<K> {
  static final VarHandle HASH_NEXT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      HASH_NEXT = lookup.findVarHandle(QueueEntry.class, "hashNext", QueueEntry.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final K key;

  /** {@link EntryTable#spread} of the key's hash code. */
  final int hash;

  /** Added since it was last handed out. */
  boolean dirty;

  /** Handed out and not done yet. */
  boolean processing;

  /** Next in the queue's ready list (used only while dirty and not processing). */
  QueueEntry<K> next;

  /** Next in the {@link EntryTable} bucket; written with release semantics (read lock-free). */
  QueueEntry<K> hashNext;

  /** Neighbours in the {@link BusyList} (metrics only, used only while processing). */
  QueueEntry<K> busyPrev;

  QueueEntry<K> busyNext;

  /** Clock time of the add that made the key dirty (metrics only). */
  long addedAt;

  /** Clock time processing started (metrics only). */
  long startedAt;

  QueueEntry(K key, int hash) {
    this.key = key;
    this.hash = hash;
  }
}
