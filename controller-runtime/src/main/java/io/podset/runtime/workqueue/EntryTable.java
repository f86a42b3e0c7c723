package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The entries of a {@link FifoWorkQueue} by key: a hash table chained through the entries
 * themselves ({@link QueueEntry#hashNext}), so a key costs no node of its own.
 *
 * <p>An entry stays linked after its key becomes idle, so a key added again (the common case: the
 * same objects are reconciled over and over) costs nothing. When the table is three quarters full,
 * {@link #insert} first unlinks every idle entry into a list of spares, which later inserts reuse
 * for other keys ({@link QueueEntry#reuse}), and grows only if the table is still at least half
 * full. So a queue allocates entries only up to its peak number of keys; the idle and spare entries
 * it retains stay below the table's capacity, which grows only when half of it holds keys that are
 * dirty or processing (a hash map that never shrinks), and each eviction pass is paid for by the
 * inserts that filled the table.
 *
 * <p>Threading: {@link #insert}, {@link #remove} and the growth and eviction they trigger run under
 * the owning queue's lock, as does {@link #find}. {@link #findLockFree} runs without it: every link
 * is published with release semantics and read with acquire semantics, and an unlinked entry keeps
 * its link until it is reused, so a lock-free reader walks fully built entries; it may miss an
 * entry (while a growth relinks the chains, or when an entry it stands on is reused elsewhere), and
 * may return an entry that has just been reused for another key: callers confirm the key against
 * the entry's state ({@link QueueEntry}) and treat a miss as "look again under the lock".
 */
final class EntryTable<K> {
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(QueueEntry[].class);
  private static final int INITIAL_CAPACITY = 16;

  /** A lock-free lookup gives up after this many entries (a miss, so the caller takes the lock). */
  private static final int LOCK_FREE_STEPS = 32;

  // Written under the queue's lock, read by findLockFree() without it. Length is a power of two.
  private volatile QueueEntry<K>[] slots = newSlots(INITIAL_CAPACITY);

  // Guarded by the queue's lock: the number of entries linked in slots.
  private int size;

  // Guarded by the queue's lock: evicted idle entries, chained through QueueEntry.next, for reuse.
  private @Nullable QueueEntry<K> spares;

  /** The hash an entry of {@code key} carries: the key's hash code with its high bits mixed in. */
  static int spread(Object key) {
    int h = key.hashCode();
    return h ^ (h >>> 16);
  }

  /** Under the lock: the entry of {@code key}, or null. */
  @Nullable QueueEntry<K> find(K key, int hash) {
    for (QueueEntry<K> entry = slots[hash & (slots.length - 1)];
        entry != null;
        entry = entry.hashNext) {
      if (entry.hash() == hash && entry.hasKey(key)) {
        return entry;
      }
    }
    return null;
  }

  /**
   * Without the lock: an entry that had {@code key} when looked at, or null; see above for the
   * misses and why the caller must confirm the key.
   */
  @SuppressWarnings("unchecked")
  @Nullable QueueEntry<K> findLockFree(K key, int hash) {
    QueueEntry<K>[] table = slots;
    QueueEntry<K> entry = (QueueEntry<K>) SLOTS.getAcquire(table, hash & (table.length - 1));
    for (int steps = 0; entry != null && steps < LOCK_FREE_STEPS; steps++) {
      if (entry.hash() == hash && entry.hasKey(key)) {
        return entry;
      }
      entry = (QueueEntry<K>) QueueEntry.HASH_NEXT.getAcquire(entry);
    }
    return null;
  }

  /**
   * Under the lock: links a dirty entry for {@code key}, which has none, reusing a spare if there
   * is one. When the table is three quarters full it first evicts idle entries (and grows if that
   * frees too little).
   */
  QueueEntry<K> insert(K key, int hash) {
    QueueEntry<K>[] table = slots;
    if (size >= table.length - (table.length >>> 2)) {
      evictIdle(table);
      if (size >= table.length >>> 1) {
        table = grow(table);
      }
    }
    QueueEntry<K> entry = spares;
    if (entry == null) {
      entry = new QueueEntry<>(key, hash);
    } else {
      spares = entry.next;
      entry.next = null;
      entry.reuse(key, hash);
    }
    link(table, entry);
    size++;
    return entry;
  }

  /**
   * Under the lock: unlinks {@code entry}, which must not be dirty or processing; its own link
   * stays, for readers standing on it.
   */
  void remove(QueueEntry<K> entry) {
    QueueEntry<K>[] table = slots;
    int index = entry.hash() & (table.length - 1);
    QueueEntry<K> current = table[index];
    if (current == entry) {
      SLOTS.setRelease(table, index, entry.hashNext);
      size--;
      return;
    }
    while (current != null) {
      if (current.hashNext == entry) {
        QueueEntry.HASH_NEXT.setRelease(current, entry.hashNext);
        size--;
        return;
      }
      current = current.hashNext;
    }
    throw new IllegalStateException("entry not in the table: " + entry.key());
  }

  /** Under the lock: the number of linked entries (idle ones included). */
  int size() {
    return size;
  }

  /** Under the lock: the number of buckets. */
  int capacity() {
    return slots.length;
  }

  /**
   * Under the lock: passes every linked entry to {@code action}, which must not insert or remove.
   */
  void forEach(Consumer<QueueEntry<K>> action) {
    for (QueueEntry<K> head : slots) {
      for (QueueEntry<K> entry = head; entry != null; entry = entry.hashNext) {
        action.accept(entry);
      }
    }
  }

  /**
   * Unlinks every idle entry into the spares. An idle entry cannot change state without the lock
   * (see {@link QueueEntry}), so what is unlinked stays idle until it is reused.
   */
  private void evictIdle(QueueEntry<K>[] table) {
    for (int index = 0; index < table.length; index++) {
      QueueEntry<K> previous = null;
      for (QueueEntry<K> entry = table[index]; entry != null; entry = entry.hashNext) {
        if (!entry.isIdle()) {
          previous = entry;
          continue;
        }
        if (previous == null) {
          SLOTS.setRelease(table, index, entry.hashNext);
        } else {
          QueueEntry.HASH_NEXT.setRelease(previous, entry.hashNext);
        }
        size--;
        entry.next = spares;
        spares = entry;
      }
    }
  }

  private static <K> void link(QueueEntry<K>[] table, QueueEntry<K> entry) {
    int index = entry.hash() & (table.length - 1);
    QueueEntry.HASH_NEXT.setRelease(entry, table[index]);
    SLOTS.setRelease(table, index, entry);
  }

  /**
   * Relinks every entry into a table twice as large, bucket by bucket, then publishes it. Each
   * relink is a release write, so a reader that sees an entry's new link also sees every earlier
   * relink.
   */
  private QueueEntry<K>[] grow(QueueEntry<K>[] old) {
    QueueEntry<K>[] table = newSlots(old.length * 2);
    for (QueueEntry<K> head : old) {
      for (QueueEntry<K> entry = head; entry != null; ) {
        QueueEntry<K> next = entry.hashNext;
        int index = entry.hash() & (table.length - 1);
        QueueEntry.HASH_NEXT.setRelease(entry, table[index]);
        SLOTS.setRelease(table, index, entry);
        entry = next;
      }
    }
    slots = table;
    return table;
  }

  @SuppressWarnings("unchecked")
  private static <K> QueueEntry<K>[] newSlots(int capacity) {
    return (QueueEntry<K>[]) new QueueEntry<?>[capacity];
  }
}
