package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one key inside a {@link FifoWorkQueue}; it exists exactly while the key is dirty or
 * processing, and is never reused for another key. Every field is guarded by the owning queue's
 * lock, except that {@link EntryTable#find} reads {@link #key}, {@link #hash} and {@link #hashNext}
 * without it and {@link #isDirtyAgain()} may run without it (the add fast path).
 */
final class QueueEntry<K> {
  private static final VarHandle DIRTY;
  static final VarHandle HASH_NEXT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      DIRTY = lookup.findVarHandle(QueueEntry.class, "dirty", boolean.class);
      HASH_NEXT = lookup.findVarHandle(QueueEntry.class, "hashNext", QueueEntry.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final K key;

  /** {@link EntryTable#spread} of the key's hash code. */
  final int hash;

  /**
   * Added since it was last handed out. Read freely under the lock; every write goes through {@link
   * #markDirty()}, {@link #clearDirty()} (an atomic read-modify-write) or {@link #dropDirty()}, so
   * a lock-free {@link #isDirtyAgain()} orders correctly against a hand-out.
   */
  private boolean dirty;

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

  /** Under the lock: whether the key is dirty. */
  boolean dirty() {
    return dirty;
  }

  /** Under the lock: the key was added. */
  void markDirty() {
    DIRTY.setRelease(this, true);
  }

  /**
   * Under the lock: the key is handed out. An atomic read-modify-write, so it reads the write of
   * any {@link #isDirtyAgain()} that succeeded before it: whatever that adder did before its add
   * happens-before the worker that gets the key.
   */
  void clearDirty() {
    DIRTY.getAndSet(this, false);
  }

  /** Under the lock: the key is dropped (shut down) without being handed out. */
  void dropDirty() {
    DIRTY.setRelease(this, false);
  }

  /**
   * Without the lock: true if the key is dirty now, in which case an add of it is a no-op. A
   * compare-and-set of true to true, so it is a write that a later {@link #clearDirty()} reads (see
   * there); false means "not known to be dirty", and the caller takes the lock.
   */
  boolean isDirtyAgain() {
    return DIRTY.compareAndSet(this, true, true);
  }
}
