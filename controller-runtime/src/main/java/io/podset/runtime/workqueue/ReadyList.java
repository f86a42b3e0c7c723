package io.podset.runtime.workqueue;

import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The keys waiting to be handed out, in the order they became ready, threaded through their {@link
 * QueueEntry}s (no node of its own per key). Not thread-safe: guarded by the owning queue's lock.
 */
final class ReadyList<K> {
  // Invariant: head..tail through QueueEntry.next holds exactly size entries; both null when empty.
  private @Nullable QueueEntry<K> head;
  private @Nullable QueueEntry<K> tail;
  private int size;

  boolean isEmpty() {
    return head == null;
  }

  int size() {
    return size;
  }

  void append(QueueEntry<K> entry) {
    if (tail == null) {
      head = entry;
    } else {
      tail.next = entry;
    }
    tail = entry;
    size++;
  }

  /** Removes and returns the oldest entry, or null when empty. */
  @Nullable QueueEntry<K> pollFirst() {
    QueueEntry<K> entry = head;
    if (entry == null) {
      return null;
    }
    head = entry.next;
    if (head == null) {
      tail = null;
    }
    entry.next = null;
    size--;
    return entry;
  }

  /** Empties the list, oldest first, passing each entry to {@code dropped}. */
  void clear(Consumer<QueueEntry<K>> dropped) {
    for (QueueEntry<K> entry = head; entry != null; ) {
      QueueEntry<K> next = entry.next;
      entry.next = null;
      dropped.accept(entry);
      entry = next;
    }
    head = null;
    tail = null;
    size = 0;
  }
}
