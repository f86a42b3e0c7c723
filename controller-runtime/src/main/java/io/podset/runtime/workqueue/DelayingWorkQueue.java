package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DelayingQueue} over a {@link FifoWorkQueue}: waiting keys sit in a heap ordered by
 * deadline ({@link WaitingKeys}, one node per key; the earliest deadline per key wins) and ONE
 * timer on the queue's clock is armed for the heap's head; when it fires it moves every due key to
 * the queue and re-arms itself for the next head. An {@code addAfter} costs a hash lookup and a
 * heap insertion; it touches the timer only when its deadline becomes the earliest.
 *
 * <p>Not final: {@link RateLimitingWorkQueue} is this queue plus a limiter, as client-go's
 * rate-limiting queue embeds its delaying queue.
 */
class DelayingWorkQueue<K> implements DelayingQueue<K> {

  private static final long MAX_DELAY_NANOS = Long.MAX_VALUE / 4;

  private final FifoWorkQueue<K> queue;
  private final Clock clock;
  private final Object lock = new Object();

  // Guarded by lock. Invariants: waiting holds each waiting key once, with the earliest deadline
  // requested; timer is armed (timerDeadline = its deadline) for at most the earliest deadline
  // whenever waiting is non-empty, and null once closed.
  private final WaitingKeys<K> waiting = new WaitingKeys<>();
  private Clock.@Nullable Cancellable timer;
  private long timerDeadline;
  private boolean closed;

  DelayingWorkQueue(FifoWorkQueue<K> queue) {
    this.queue = Objects.requireNonNull(queue, "queue");
    this.clock = queue.clock();
  }

  @Override
  public void addAfter(K key, Duration delay) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative() || delay.isZero()) {
      queue.add(key);
      return;
    }
    long now = clock.nanoTime();
    long deadline = deadline(now, delay);
    synchronized (lock) {
      if (closed) {
        return;
      }
      if (!waiting.offer(key, deadline)) {
        return;
      }
      if (timer == null || deadline - timerDeadline < 0L) {
        arm(deadline);
      }
    }
  }

  /** Number of keys waiting for their delay to elapse (for tests and diagnostics). */
  int waitingCount() {
    synchronized (lock) {
      return waiting.size();
    }
  }

  /**
   * Arms the one timer for {@code deadline}, replacing the armed one. Holds the lock. The delay is
   * taken from a fresh clock reading: one taken before the lock may be stale (another thread may
   * have moved a manual clock on meanwhile), and a stale one would arm the timer late.
   */
  private void arm(long deadline) {
    if (timer != null) {
      timer.cancel();
    }
    timerDeadline = deadline;
    long delay = Math.max(0L, deadline - clock.nanoTime());
    timer = clock.schedule(Duration.ofNanos(delay), this::fire);
  }

  /** The timer: moves every due key to the queue, then re-arms for the next deadline. */
  private void fire() {
    List<K> due = new ArrayList<>();
    synchronized (lock) {
      if (closed) {
        return;
      }
      long now = clock.nanoTime();
      for (K key = waiting.pollDue(now); key != null; key = waiting.pollDue(now)) {
        due.add(key);
      }
      // A cancelled timer that had already started may run too: it re-arms like the live one.
      timer = null;
      if (!waiting.isEmpty()) {
        arm(waiting.earliestDeadline());
      }
    }
    for (K key : due) {
      queue.add(key);
    }
  }

  private void cancelAll() {
    synchronized (lock) {
      closed = true;
      if (timer != null) {
        timer.cancel();
        timer = null;
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
}
