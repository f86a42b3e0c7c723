package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The basic {@link WorkQueue}: one lock, and per-key entries threaded into an intrusive hash table
 * ({@link EntryTable}) and two intrusive lists (the {@link ReadyList} and, with metrics, the {@link
 * BusyList}). A key's entry stays in the table while the key is idle (evicted when the table needs
 * room), so adding a key again allocates nothing.
 *
 * <p>The common done, of a key that was not added meanwhile, takes no lock: it marks the key idle
 * with a compare-and-set (see {@link QueueEntry}). Such a done does not update the processing
 * count; that count is kept only for keys marked {@link QueueEntry#COUNTED}: all of them with
 * metrics, and from the start of a shutdown, which marks the keys being processed then, so a drain
 * knows when they are all done. (A lock-free add of a key already dirty was tried too: it cost the
 * hand-out an atomic read-modify-write and showed no gain in the 1 producer / 2 workers benchmark.)
 */
final class FifoWorkQueue<K> implements WorkQueue<K> {

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when a key becomes ready or the queue shuts down. */
  private final Condition notEmpty = lock.newCondition();

  /** Signalled when a shutting-down queue has nothing ready and nothing processing. */
  private final Condition drained = lock.newCondition();

  private final Clock clock;

  /** Null when the queue has no metrics: then no clock is read on the hot path. */
  private final @Nullable QueueMetrics metrics;

  // All fields below are guarded by lock (entries and the entries' states are also read, and a
  // processing entry made idle, without it: see QueueEntry). Invariants:
  // - entries holds every key that is dirty or processing, and maybe idle ones.
  // - an entry is in ready iff dirty && !processing.
  // - processing counts the entries that are processing and COUNTED; with metrics every processing
  //   entry is COUNTED and in busy; once shuttingDown, every processing entry is COUNTED.
  // - once shuttingDown, no key becomes dirty again; after shutDown() without drain the ready list
  //   is empty and no entry is dirty.
  private final EntryTable<K> entries = new EntryTable<>();
  private final ReadyList<K> ready = new ReadyList<>();
  private final BusyList<K> busy = new BusyList<>();
  private int processing;
  private boolean shuttingDown;

  /** Set by {@link #shutDown()}: waiting keys were dropped and drain waiters must return. */
  private boolean dropped;

  FifoWorkQueue(Clock clock, @Nullable QueueMetrics metrics) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = metrics;
  }

  Clock clock() {
    return clock;
  }

  @Nullable QueueMetrics metrics() {
    return metrics;
  }

  @Override
  public void add(K key) {
    Objects.requireNonNull(key, "key");
    int hash = EntryTable.spread(key);
    long now = metrics == null ? 0L : clock.nanoTime();
    lock.lock();
    try {
      if (shuttingDown) {
        return;
      }
      QueueEntry<K> entry = entries.find(key, hash);
      boolean beingProcessed;
      if (entry == null) {
        entry = entries.insert(key, hash);
        beingProcessed = false;
      } else if (entry.isDirty()) {
        return;
      } else {
        beingProcessed = entry.markDirty();
      }
      entry.addedAt = now;
      if (!beingProcessed) {
        pushReady(entry);
      }
    } finally {
      lock.unlock();
    }
    if (metrics != null) {
      metrics.added();
    }
  }

  @Override
  public Optional<K> get() throws InterruptedException {
    // Wrapped here, in a method small enough to inline, so callers that unwrap it at once (a
    // worker loop) do not allocate it.
    return Optional.ofNullable(take(null));
  }

  @Override
  public Optional<K> poll(Duration timeout) throws InterruptedException {
    return Optional.ofNullable(take(Objects.requireNonNull(timeout, "timeout")));
  }

  /**
   * Hands out the head, or returns null on timeout or shutdown; waits forever when timeout is null,
   * never when it is zero or negative.
   */
  private @Nullable K take(@Nullable Duration timeout) throws InterruptedException {
    TimedWakeup wakeup = null;
    K key;
    long queued = 0L;
    lock.lockInterruptibly();
    try {
      if (ready.isEmpty() && !shuttingDown) {
        if (timeout != null) {
          if (timeout.isNegative() || timeout.isZero()) {
            return null;
          }
          wakeup = TimedWakeup.after(clock, timeout, lock, notEmpty);
        }
        try {
          while (ready.isEmpty() && !shuttingDown && (wakeup == null || !wakeup.fired())) {
            notEmpty.await();
          }
        } catch (InterruptedException e) {
          passSignalOn();
          throw e;
        }
      }
      QueueEntry<K> entry = ready.pollFirst();
      if (entry == null) {
        return null;
      }
      boolean counted = metrics != null || shuttingDown;
      entry.handOut(counted);
      if (counted) {
        processing++;
      }
      key = entry.key();
      if (metrics != null) {
        long now = clock.nanoTime();
        queued = now - entry.addedAt;
        entry.startedAt = now;
        busy.append(entry);
      }
      passSignalOn();
    } finally {
      lock.unlock();
      if (wakeup != null) {
        wakeup.cancel();
      }
    }
    if (metrics != null) {
      metrics.queued(queued);
    }
    return key;
  }

  /**
   * Wakes another waiter if keys are left, so a signal consumed by a leaving thread is not lost.
   */
  private void passSignalOn() {
    if (!ready.isEmpty()) {
      notEmpty.signal();
    }
  }

  @Override
  public void done(K key) {
    Objects.requireNonNull(key, "key");
    int hash = EntryTable.spread(key);
    QueueEntry<K> seen = entries.findLockFree(key, hash);
    if (seen != null && seen.finishFast(key)) {
      // Not added meanwhile and not counted: idle now, nothing to re-queue or signal.
      return;
    }
    long worked = 0L;
    lock.lock();
    try {
      QueueEntry<K> entry = entries.find(key, hash);
      int before = entry == null ? -1 : entry.finish();
      if (entry == null || before == -1) {
        throw new IllegalStateException("done(key) for a key that is not being processed: " + key);
      }
      if ((before & QueueEntry.COUNTED) != 0) {
        processing--;
      }
      if (metrics != null) {
        worked = clock.nanoTime() - entry.startedAt;
        busy.remove(entry);
      }
      if ((before & QueueEntry.DIRTY) != 0) {
        pushReady(entry);
      } else if (shuttingDown && processing == 0 && ready.isEmpty()) {
        drained.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (metrics != null) {
      metrics.worked(worked);
    }
  }

  /**
   * Under the lock: the first call marks the queue shutting down and counts every key being
   * processed now ({@link QueueEntry#markCounted()}), so their dones take the lock and a drain sees
   * the count reach zero. A done that finished its key lock-free first is simply not counted.
   */
  private void beginShutdown() {
    if (shuttingDown) {
      return;
    }
    shuttingDown = true;
    entries.forEach(
        entry -> {
          if (entry.markCounted()) {
            processing++;
          }
        });
  }

  private void pushReady(QueueEntry<K> entry) {
    ready.append(entry);
    notEmpty.signal();
  }

  @Override
  public int len() {
    lock.lock();
    try {
      return ready.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    lock.lock();
    try {
      beginShutdown();
      dropped = true;
      ready.clear(
          entry -> {
            entry.dropDirty();
            entries.remove(entry);
          });
      entries.forEach(QueueEntry::dropDirty);
      notEmpty.signalAll();
      drained.signalAll();
    } finally {
      lock.unlock();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  @Override
  public void shutDownWithDrain() {
    awaitDrained(null);
  }

  @Override
  public boolean shutDownWithDrain(Duration timeout) {
    return awaitDrained(Objects.requireNonNull(timeout, "timeout"));
  }

  private boolean awaitDrained(@Nullable Duration timeout) {
    TimedWakeup wakeup = null;
    boolean done;
    lock.lock();
    try {
      beginShutdown();
      notEmpty.signalAll();
      if (timeout != null && (!ready.isEmpty() || processing > 0)) {
        wakeup = TimedWakeup.after(clock, timeout, lock, drained);
      }
      while ((!ready.isEmpty() || processing > 0)
          && !dropped
          && (wakeup == null || !wakeup.fired())) {
        drained.await();
      }
      done = ready.isEmpty() && processing == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      done = false;
    } finally {
      lock.unlock();
      if (wakeup != null) {
        wakeup.cancel();
      }
    }
    if (done && metrics != null) {
      metrics.close();
    }
    return done;
  }

  @Override
  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    shutDown();
  }

  /** The number of buckets of the entry table (for tests and diagnostics). */
  int entryCapacity() {
    lock.lock();
    try {
      return entries.capacity();
    } finally {
      lock.unlock();
    }
  }

  /** Seconds all keys being processed have spent so far (for {@code unfinished_work_seconds}). */
  double unfinishedWorkSeconds() {
    lock.lock();
    try {
      return busy.unfinishedNanos(clock.nanoTime()) / 1e9;
    } finally {
      lock.unlock();
    }
  }

  /** Seconds the longest-running key has been processed, or 0 (for the longest-running gauge). */
  double longestRunningSeconds() {
    lock.lock();
    try {
      return busy.longestNanos(clock.nanoTime()) / 1e9;
    } finally {
      lock.unlock();
    }
  }
}
