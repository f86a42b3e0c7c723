package io.podset.runtime.workqueue;

import org.jspecify.annotations.Nullable;

/**
 * The keys being processed, oldest first, threaded through their {@link QueueEntry}s; it backs the
 * {@code unfinished_work_seconds} and {@code longest_running_processor_seconds} gauges at a cost of
 * a few pointer writes per key. Not thread-safe: guarded by the owning queue's lock.
 */
final class BusyList<K> {
  // Invariant: entries linked here are ordered by startedAt (they are appended when handed out,
  // under the queue's lock, with a monotonic clock), so the oldest is the longest running.
  private @Nullable QueueEntry<K> oldest;
  private @Nullable QueueEntry<K> newest;

  void append(QueueEntry<K> entry) {
    entry.busyPrev = newest;
    if (newest == null) {
      oldest = entry;
    } else {
      newest.busyNext = entry;
    }
    newest = entry;
  }

  void remove(QueueEntry<K> entry) {
    if (entry.busyPrev == null) {
      oldest = entry.busyNext;
    } else {
      entry.busyPrev.busyNext = entry.busyNext;
    }
    if (entry.busyNext == null) {
      newest = entry.busyPrev;
    } else {
      entry.busyNext.busyPrev = entry.busyPrev;
    }
    entry.busyPrev = null;
    entry.busyNext = null;
  }

  /** Nanoseconds all listed keys have been processed so far, at clock time {@code now}. */
  long unfinishedNanos(long now) {
    long total = 0L;
    for (QueueEntry<K> entry = oldest; entry != null; entry = entry.busyNext) {
      total += now - entry.startedAt;
    }
    return total;
  }

  /** Nanoseconds the longest-running key has been processed, or 0 when none is. */
  long longestNanos(long now) {
    return oldest == null ? 0L : now - oldest.startedAt;
  }
}
