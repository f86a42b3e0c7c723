package io.podset.runtime.workqueue;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The keys of a {@link DelayingWorkQueue} waiting for their deadline, one node per key: the nodes
 * form a binary min-heap by deadline and are also chained in a hash table by key, so finding a key,
 * moving its deadline earlier in place, and taking the earliest each cost one node and no stale
 * copies. Deadlines are {@link System#nanoTime()}-style readings, compared by subtraction. Not
 * thread-safe: guarded by the owning queue's lock.
 */
final class WaitingKeys<K> {

  private static final int INITIAL_CAPACITY = 16;

  /** One waiting key. */
  private static final class Node<K> {
    final K key;
    final int hash;
    long deadline;

    /** Position in the heap array. */
    int index;

    /** Next in the hash bucket. */
    @Nullable Node<K> next;

    Node(K key, int hash, long deadline) {
      this.key = key;
      this.hash = hash;
      this.deadline = deadline;
    }
  }

  // Invariants: heap[0..size) holds every node, each at heap[node.index], no node's deadline is
  // before its parent's; every node is in the bucket chain of table[node.hash & (length - 1)];
  // both lengths are powers of two, table's at least 4/3 of size.
  private Node<K>[] table = newArray(INITIAL_CAPACITY);
  private Node<K>[] heap = newArray(INITIAL_CAPACITY);
  private int size;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /**
   * Makes {@code key} wait until {@code deadline}, unless it already waits until then or earlier.
   * Returns whether the key's deadline was set (it was absent or waited longer).
   */
  boolean offer(K key, long deadline) {
    int hash = EntryTable.spread(key);
    for (Node<K> node = table[hash & (table.length - 1)]; node != null; node = node.next) {
      if (node.hash == hash && node.key.equals(key)) {
        if (deadline - node.deadline >= 0L) {
          return false;
        }
        node.deadline = deadline;
        siftUp(node, node.index);
        return true;
      }
    }
    if (size >= table.length - (table.length >>> 2)) {
      rehash();
    }
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    Node<K> node = new Node<>(key, hash, deadline);
    int bucket = hash & (table.length - 1);
    node.next = table[bucket];
    table[bucket] = node;
    siftUp(node, size++);
    return true;
  }

  /** The earliest deadline; only when not empty. */
  long earliestDeadline() {
    return heap[0].deadline;
  }

  /** Removes and returns the key with the earliest deadline if that is at or before {@code now}. */
  @Nullable K pollDue(long now) {
    if (size == 0 || heap[0].deadline - now > 0L) {
      return null;
    }
    Node<K> head = heap[0];
    unlink(head);
    Node<K> last = heap[--size];
    heap[size] = null;
    if (size > 0) {
      siftDown(last, 0);
    }
    return head.key;
  }

  void clear() {
    Arrays.fill(table, null);
    Arrays.fill(heap, 0, size, null);
    size = 0;
  }

  private void unlink(Node<K> node) {
    int bucket = node.hash & (table.length - 1);
    Node<K> current = table[bucket];
    if (current == node) {
      table[bucket] = node.next;
      return;
    }
    while (current != null && current.next != node) {
      current = current.next;
    }
    if (current == null) {
      throw new IllegalStateException("a waiting key is missing from its bucket");
    }
    current.next = node.next;
  }

  private void rehash() {
    Node<K>[] bigger = newArray(table.length * 2);
    for (Node<K> head : table) {
      for (Node<K> node = head; node != null; ) {
        Node<K> next = node.next;
        int bucket = node.hash & (bigger.length - 1);
        node.next = bigger[bucket];
        bigger[bucket] = node;
        node = next;
      }
    }
    table = bigger;
  }

  /** Places {@code node} at {@code index} or above, moving later parents down. */
  private void siftUp(Node<K> node, int index) {
    while (index > 0) {
      int parentIndex = (index - 1) >>> 1;
      Node<K> parent = heap[parentIndex];
      if (node.deadline - parent.deadline >= 0L) {
        break;
      }
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = node;
    node.index = index;
  }

  /** Places {@code node} at {@code index} or below, moving earlier children up. */
  private void siftDown(Node<K> node, int index) {
    int half = size >>> 1;
    while (index < half) {
      int childIndex = 2 * index + 1;
      Node<K> child = heap[childIndex];
      int rightIndex = childIndex + 1;
      if (rightIndex < size && heap[rightIndex].deadline - child.deadline < 0L) {
        childIndex = rightIndex;
        child = heap[rightIndex];
      }
      if (child.deadline - node.deadline >= 0L) {
        break;
      }
      heap[index] = child;
      child.index = index;
      index = childIndex;
    }
    heap[index] = node;
    node.index = index;
  }

  @SuppressWarnings("unchecked")
  private static <K> Node<K>[] newArray(int length) {
    return (Node<K>[]) new Node<?>[length];
  }
}
