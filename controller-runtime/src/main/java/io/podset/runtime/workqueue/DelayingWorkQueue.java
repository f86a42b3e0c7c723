package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link DelayingQueue} over a {@link FifoWorkQueue}: each waiting key holds one timer on the
 * queue's clock, and the earliest deadline per key wins.
 */
final class DelayingWorkQueue<K> implements DelayingQueue<K> {

  private static final long MAX_DELAY_NANOS = Long.MAX_VALUE / 4;

  private final FifoWorkQueue<K> queue;
  private final Clock clock;
  private final Object lock = new Object();

  // Guarded by lock. Invariants: waiting holds exactly the keys with a live timer, each mapped to
  // that timer's Waiting (the one with the earliest deadline requested); once closed, waiting is
  // empty and no timer is scheduled.
  private final HashMap<K, Waiting> waiting = new HashMap<>();
  private boolean closed;

  DelayingWorkQueue(FifoWorkQueue<K> queue) {
    this.queue = Objects.requireNonNull(queue, "queue");
    this.clock = queue.clock();
  }

  FifoWorkQueue<K> fifo() {
    return queue;
  }

  @Override
  public void addAfter(K key, Duration delay) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative() || delay.isZero()) {
      queue.add(key);
      return;
    }
    long deadline = deadline(clock.nanoTime(), delay);
    synchronized (lock) {
      if (closed) {
        return;
      }
      Waiting current = waiting.get(key);
      if (current != null) {
        if (current.deadline - deadline <= 0L) {
          return;
        }
        current.handle.cancel();
      }
      Waiting next = new Waiting(key, deadline);
      waiting.put(key, next);
      next.handle = clock.schedule(delay, next);
    }
  }

  /** Number of keys waiting for their delay to elapse (for tests and diagnostics). */
  int waitingCount() {
    synchronized (lock) {
      return waiting.size();
    }
  }

  private void fire(Waiting timer) {
    synchronized (lock) {
      // A replaced or cancelled timer may still run if it had already started; ignore it.
      if (waiting.get(timer.key) != timer) {
        return;
      }
      waiting.remove(timer.key);
    }
    queue.add(timer.key);
  }

  private void cancelAll() {
    synchronized (lock) {
      closed = true;
      for (Waiting timer : waiting.values()) {
        timer.handle.cancel();
      }
      waiting.clear();
    }
  }

  @Override
  public void add(K key) {
    queue.add(key);
  }

  @Override
  public Optional<K> get() throws InterruptedException {
    return queue.get();
  }

  @Override
  public Optional<K> poll(Duration timeout) throws InterruptedException {
    return queue.poll(timeout);
  }

  @Override
  public void done(K key) {
    queue.done(key);
  }

  @Override
  public int len() {
    return queue.len();
  }

  @Override
  public void shutDown() {
    cancelAll();
    queue.shutDown();
  }

  @Override
  public void shutDownWithDrain() {
    cancelAll();
    queue.shutDownWithDrain();
  }

  @Override
  public boolean shutDownWithDrain(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    cancelAll();
    return queue.shutDownWithDrain(timeout);
  }

  @Override
  public boolean isShuttingDown() {
    return queue.isShuttingDown();
  }

  @Override
  public void close() {
    shutDown();
  }

  /**
   * Deadlines are compared by subtraction, like {@link System#nanoTime()} readings, so a delay is
   * capped at about 73 years to keep differences from overflowing.
   */
  private static long deadline(long now, Duration delay) {
    long nanos;
    try {
      nanos = Math.min(delay.toNanos(), MAX_DELAY_NANOS);
    } catch (ArithmeticException overflow) {
      nanos = MAX_DELAY_NANOS;
    }
    return now + nanos;
  }

  /** One key's pending timer; handle is guarded by lock (set right after scheduling). */
  private final class Waiting implements Runnable {
    final K key;
    final long deadline;
    Clock.Cancellable handle;

    Waiting(K key, long deadline) {
      this.key = key;
      this.deadline = deadline;
    }

    @Override
    public void run() {
      fire(this);
    }
  }
}
