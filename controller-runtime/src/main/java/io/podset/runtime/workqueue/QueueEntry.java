package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of one key inside a {@link FifoWorkQueue}. It is created when the key is first added
 * and stays in the queue's {@link EntryTable} while the key is dirty or processing, and afterwards
 * idle until the table evicts it to make room; it is never reused for another key.
 *
 * <p>The key's state is one word, {@link #state}: {@link #DIRTY} (added since last handed out),
 * {@link #PROCESSING} (handed out, not done), and {@link #COUNTED} (processing and counted in the
 * queue's processing count, so its done must take the lock), or {@link #IDLE}. Two transitions run
 * without the queue's lock, both as compare-and-sets:
 *
 * <ul>
 *   <li>{@link #coalesce()}: an add of a key that is dirty confirms it dirty (a CAS of the state to
 *       itself) and is then a no-op;
 *   <li>{@link #finishFast()}: a done of a key that is exactly {@link #PROCESSING} (not dirty
 *       again, not counted) makes it {@link #IDLE}.
 * </ul>
 *
 * Every other transition runs under the lock. Since a lock-free transition only starts from a state
 * with {@link #DIRTY} (and leaves it unchanged) or from exactly {@link #PROCESSING}, nothing
 * changes an idle entry without the lock. The other fields are guarded by the queue's lock, except
 * that {@link EntryTable#find} reads {@link #key}, {@link #hash} and {@link #hashNext} without it.
 */
final class QueueEntry<K> {
  static final int IDLE = 0;
  static final int DIRTY = 1;
  static final int PROCESSING = 2;
  static final int COUNTED = 4;

  private static final VarHandle STATE;
  static final VarHandle HASH_NEXT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(QueueEntry.class, "state", int.class);
      HASH_NEXT = lookup.findVarHandle(QueueEntry.class, "hashNext", QueueEntry.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final K key;

  /** {@link EntryTable#spread} of the key's hash code. */
  final int hash;

  /** Bits of DIRTY, PROCESSING, COUNTED; accessed only through STATE (acquire/release or CAS). */
  @SuppressWarnings("unused")
  private int state;

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

  /** A new entry is dirty: it is made for an add. */
  QueueEntry(K key, int hash) {
    this.key = key;
    this.hash = hash;
    STATE.setRelease(this, DIRTY);
  }

  /** The current state (an acquire read). */
  int state() {
    return (int) STATE.getAcquire(this);
  }

  boolean isIdle() {
    return state() == IDLE;
  }

  /**
   * Without the lock: true if the key is dirty now, so an add of it is a no-op. A compare-and-set
   * of the state to itself, so it is a write that the hand-out's {@link #handOut} reads: whatever
   * the adder did before its add happens-before the worker that gets the key. False means "not
   * known to be dirty": the caller takes the lock.
   */
  boolean coalesce() {
    int s = state();
    return (s & DIRTY) != 0 && STATE.compareAndSet(this, s, s);
  }

  /**
   * Under the lock: marks the key dirty and returns the state before, which had no {@link #DIRTY}.
   * An entry being processed may be finished lock-free meanwhile, hence the loop.
   */
  int markDirty() {
    while (true) {
      int s = state();
      if ((s & PROCESSING) == 0) {
        // Idle (the caller checked it is not dirty): nothing changes it without the lock.
        STATE.setRelease(this, s | DIRTY);
        return s;
      }
      if (STATE.compareAndSet(this, s, s | DIRTY)) {
        return s;
      }
    }
  }

  /**
   * Under the lock: the key (dirty, not processing) is handed out. An atomic read-modify-write, so
   * it reads the write of every {@link #coalesce()} that succeeded before it (see there).
   */
  void handOut(boolean counted) {
    STATE.getAndSet(this, counted ? PROCESSING | COUNTED : PROCESSING);
  }

  /** Without the lock: ends processing if the key is exactly {@link #PROCESSING}. */
  boolean finishFast() {
    return STATE.compareAndSet(this, PROCESSING, IDLE);
  }

  /**
   * Under the lock: ends processing, leaving the key {@link #DIRTY} if it was added meanwhile and
   * {@link #IDLE} otherwise. Returns the state before, or -1 (unchanged) if it was not processing.
   */
  int finish() {
    while (true) {
      int s = state();
      if ((s & PROCESSING) == 0) {
        return -1;
      }
      if (STATE.compareAndSet(this, s, s & DIRTY)) {
        return s;
      }
    }
  }

  /**
   * Under the lock: counts the key in the queue's processing count if it is processing and not
   * counted yet, so its done takes the lock. Returns whether it did.
   */
  boolean markCounted() {
    while (true) {
      int s = state();
      if ((s & PROCESSING) == 0 || (s & COUNTED) != 0) {
        return false;
      }
      if (STATE.compareAndSet(this, s, s | COUNTED)) {
        return true;
      }
    }
  }

  /** Under the lock: the key is no longer dirty (the queue shuts down and drops it). */
  void dropDirty() {
    while (true) {
      int s = state();
      if ((s & DIRTY) == 0 || STATE.compareAndSet(this, s, s & ~DIRTY)) {
        return;
      }
    }
  }
}
