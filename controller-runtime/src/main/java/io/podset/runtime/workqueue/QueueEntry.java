package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The state of one key inside a {@link FifoWorkQueue}. It is linked in the queue's {@link
 * EntryTable} while its key is dirty or processing, and afterwards idle until the table evicts it;
 * an evicted entry may be reused for another key ({@link #reuse}).
 *
 * <p>The state is one word: the flags {@link #DIRTY} (added since last handed out), {@link
 * #PROCESSING} (handed out, not done) and {@link #COUNTED} (processing and counted in the queue's
 * processing count, so its done must take the lock), none of them when idle, and in the bits above
 * them a generation that each reuse advances. One transition runs without the queue's lock: {@link
 * #finishFast}, a done of a key that is exactly {@link #PROCESSING} (not dirty again, not counted),
 * makes it idle with a compare-and-set of the state read beforehand. It first checks that the entry
 * has the caller's key, reading the key after the state: a reuse writes the key before it publishes
 * the new generation, and it only reuses idle entries, so if the compare-and-set succeeds the entry
 * had that key all along (unless the generation wrapped around, 2^29 reuses of this entry, between
 * the read and the compare-and-set). Every other transition runs under the lock; a processing entry
 * is the only one that can change without it, and only to idle. The other fields are guarded by the
 * queue's lock, except that {@link EntryTable#findLockFree} reads the key, the hash and {@link
 * #hashNext} without it.
 */
final class QueueEntry<K> {
  static final int DIRTY = 1;
  static final int PROCESSING = 2;
  static final int COUNTED = 4;

  private static final int FLAGS = DIRTY | PROCESSING | COUNTED;
  private static final int GENERATION = ~FLAGS;
  private static final int NEXT_GENERATION = FLAGS + 1;

  private static final VarHandle STATE;
  private static final VarHandle KEY;
  private static final VarHandle HASH;
  static final VarHandle HASH_NEXT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(QueueEntry.class, "state", int.class);
      KEY = lookup.findVarHandle(QueueEntry.class, "key", Object.class);
      HASH = lookup.findVarHandle(QueueEntry.class, "hash", int.class);
      HASH_NEXT = lookup.findVarHandle(QueueEntry.class, "hashNext", QueueEntry.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // key, hash and state are accessed through their VarHandles (acquire/release or CAS) only.
  private @Nullable Object key;

  /** {@link EntryTable#spread} of the key's hash code. */
  private int hash;

  private int state;

  /** Next in the queue's ready list while dirty and not processing, or in the table's spares. */
  @Nullable QueueEntry<K> next;

  /** Next in the {@link EntryTable} bucket; written with release semantics (read lock-free). */
  @Nullable QueueEntry<K> hashNext;

  /** Neighbours in the {@link BusyList} (metrics only, used only while processing). */
  @Nullable QueueEntry<K> busyPrev;

  @Nullable QueueEntry<K> busyNext;

  /** Clock time of the add that made the key dirty (metrics only). */
  long addedAt;

  /** Clock time processing started (metrics only). */
  long startedAt;

  /** A new entry is dirty: it is made for an add. */
  QueueEntry(K key, int hash) {
    KEY.setRelease(this, key);
    HASH.setRelease(this, hash);
    STATE.setRelease(this, DIRTY);
  }

  /**
   * Under the lock, on an idle entry that is not linked: the entry now holds {@code key}, dirty.
   */
  void reuse(K key, int hash) {
    KEY.setRelease(this, key);
    HASH.setRelease(this, hash);
    STATE.setRelease(this, ((state() & GENERATION) + NEXT_GENERATION) | DIRTY);
  }

  @SuppressWarnings("unchecked")
  K key() {
    return (K) KEY.getAcquire(this);
  }

  int hash() {
    return (int) HASH.getAcquire(this);
  }

  boolean hasKey(K candidate) {
    Object mine = KEY.getAcquire(this);
    return mine == candidate || mine.equals(candidate);
  }

  /** The current state (an acquire read). */
  int state() {
    return (int) STATE.getAcquire(this);
  }

  boolean isDirty() {
    return (state() & DIRTY) != 0;
  }

  boolean isIdle() {
    return (state() & FLAGS) == 0;
  }

  /**
   * Without the lock: ends processing if the entry has {@code key} and is exactly {@link
   * #PROCESSING}. False means the caller takes the lock.
   */
  boolean finishFast(K key) {
    int s = state();
    return (s & FLAGS) == PROCESSING && hasKey(key) && STATE.compareAndSet(this, s, s & GENERATION);
  }

  /**
   * Under the lock, on an entry that is not dirty: marks it dirty and returns whether it is being
   * processed. A processing entry may be finished lock-free meanwhile, hence the loop.
   */
  boolean markDirty() {
    while (true) {
      int s = state();
      if ((s & PROCESSING) == 0) {
        // Idle: nothing changes it without the lock.
        STATE.setRelease(this, s | DIRTY);
        return false;
      }
      if (STATE.compareAndSet(this, s, s | DIRTY)) {
        return true;
      }
    }
  }

  /**
   * Under the lock, on an entry that is dirty and not processing (so nothing changes it without the
   * lock): hands it out.
   */
  void handOut(boolean counted) {
    int generation = state() & GENERATION;
    STATE.setRelease(this, generation | (counted ? PROCESSING | COUNTED : PROCESSING));
  }

  /**
   * Under the lock: ends processing, leaving the entry dirty if it was added meanwhile and idle
   * otherwise. Returns the state before, or -1 (unchanged) if it was not processing.
   */
  int finish() {
    while (true) {
      int s = state();
      if ((s & PROCESSING) == 0) {
        return -1;
      }
      if (STATE.compareAndSet(this, s, s & (GENERATION | DIRTY))) {
        return s;
      }
    }
  }

  /**
   * Under the lock: counts the entry in the queue's processing count if it is processing and not
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

  /** Under the lock: the entry is no longer dirty (the queue shuts down and drops it). */
  void dropDirty() {
    while (true) {
      int s = state();
      if ((s & DIRTY) == 0 || STATE.compareAndSet(this, s, s & ~DIRTY)) {
        return;
      }
    }
  }
}
