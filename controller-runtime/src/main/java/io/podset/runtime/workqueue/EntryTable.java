package io.podset.runtime.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * The entries of a {@link FifoWorkQueue} by key: a hash table chained through the entries
 * themselves ({@link QueueEntry#hashNext}), so a key costs no node of its own.
 *
 * <p>An entry stays linked after its key becomes idle, so a key added again (the common case: the
 * same objects are reconciled over and over) costs no allocation. Idle entries are evicted when the
 * table is full: {@link #insert} first unlinks every idle entry and grows only if the table is
 * still at least half full. So the idle entries retained stay below the table's capacity, which
 * grows only when half of it holds keys that are dirty or processing (a hash map that never
 * shrinks), and each eviction pass is paid for by the inserts that filled the table.
 *
 * <p>Threading: {@link #insert}, {@link #remove} and the growth they trigger run under the owning
 * queue's lock. {@link #find} may also run without it (the queue does not, today): every link is
 * published with release semantics and read with acquire semantics, entries are never reused for
 * another key (their key and hash are final), and a removed entry keeps its link, so a lock-free
 * reader always walks a finite chain of fully built entries. It may miss an entry while a growth
 * relinks the chains; lock-free callers treat a miss as "look again under the lock".
 */
final class EntryTable<K> {
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(QueueEntry[].class);
  private static final int INITIAL_CAPACITY = 16;

  // Written under the queue's lock, read by find() without it. Length is a power of two.
  private volatile QueueEntry<K>[] slots = newSlots(INITIAL_CAPACITY);
  // Guarded by the queue's lock: the number of entries linked in slots.
  private int size;

  /** The hash an entry of {@code key} carries: the key's hash code with its high bits mixed in. */
  static int spread(Object key) {
    int h = key.hashCode();
    return h ^ (h >>> 16);
  }

  /** The entry of {@code key}, or null. Safe without the lock (then it may miss, see above). */
  @SuppressWarnings("unchecked")
  QueueEntry<K> find(K key, int hash) {
    QueueEntry<K>[] table = slots;
    QueueEntry<K> entry = (QueueEntry<K>) SLOTS.getAcquire(table, hash & (table.length - 1));
    while (entry != null) {
      if (entry.hash == hash && entry.key.equals(key)) {
        return entry;
      }
      entry = (QueueEntry<K>) QueueEntry.HASH_NEXT.getAcquire(entry);
    }
    return null;
  }

  /**
   * Under the lock: links a new, dirty entry for {@code key}, which has none, first evicting idle
   * entries (and growing if that frees too little) when the table is three quarters full.
   */
  QueueEntry<K> insert(K key, int hash) {
    QueueEntry<K> entry = new QueueEntry<>(key, hash);
    QueueEntry<K>[] table = slots;
    if (size >= table.length - (table.length >>> 2)) {
      evictIdle(table);
      if (size >= table.length >>> 1) {
        table = grow(table);
      }
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
    int index = entry.hash & (table.length - 1);
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
    throw new IllegalStateException("entry not in the table: " + entry.key);
  }

  /**
   * Under the lock: unlinks every idle entry. An idle entry cannot change state without the lock
   * (see {@link QueueEntry}), so what is unlinked stays idle; an unlinked entry keeps its own link,
   * for lock-free readers standing on it, and is never linked again.
   */
  private void evictIdle(QueueEntry<K>[] table) {
    for (int index = 0; index < table.length; index++) {
      QueueEntry<K> previous = null;
      for (QueueEntry<K> entry = table[index]; entry != null; entry = entry.hashNext) {
        if (!entry.isIdle()) {
          previous = entry;
        } else if (previous == null) {
          SLOTS.setRelease(table, index, entry.hashNext);
          size--;
        } else {
          QueueEntry.HASH_NEXT.setRelease(previous, entry.hashNext);
          size--;
        }
      }
    }
  }

  /** Under the lock: the table's current capacity (number of buckets). */
  int capacity() {
    return slots.length;
  }

  /** Under the lock: the number of entries. */
  int size() {
    return size;
  }

  /** Under the lock: passes every entry to {@code action}, which must not insert or remove. */
  void forEach(Consumer<QueueEntry<K>> action) {
    for (QueueEntry<K> head : slots) {
      for (QueueEntry<K> entry = head; entry != null; entry = entry.hashNext) {
        action.accept(entry);
      }
    }
  }

  private static <K> void link(QueueEntry<K>[] table, QueueEntry<K> entry) {
    int index = entry.hash & (table.length - 1);
    entry.hashNext = table[index];
    SLOTS.setRelease(table, index, entry);
  }

  /**
   * Relinks every entry into a table twice as large, bucket by bucket, then publishes it. Each
   * relink is a release write, so a reader that sees an entry's new link also sees every earlier
   * relink: chains only lead to entries moved earlier, and every walk ends.
   */
  private QueueEntry<K>[] grow(QueueEntry<K>[] old) {
    QueueEntry<K>[] table = newSlots(old.length * 2);
    for (QueueEntry<K> head : old) {
      for (QueueEntry<K> entry = head; entry != null; ) {
        QueueEntry<K> next = entry.hashNext;
        int index = entry.hash & (table.length - 1);
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
