package io.podset.runtime.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * A clock that only moves when told to, for deterministic tests.
 *
 * <p>{@link #advance(Duration)} moves time forward and runs, on the calling thread and in deadline
 * order, every task that became due; tasks scheduled by those tasks run too if they fall within the
 * new time. Tasks scheduled with a zero delay run on the next {@link #advance} (or {@link
 * #runDueTasks()}), never on the scheduling thread, as with the system clock.
 */
public final class ManualClock implements Clock {

  private final Object lock = new Object();
  private final Instant wallStart;
  // Guarded by lock.
  private long nanos;
  private long sequence;
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();

  /** A manual clock starting at the given wall-clock instant. */
  public ManualClock(Instant start) {
    this.wallStart = Objects.requireNonNull(start, "start");
  }

  /** A manual clock starting at 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public long nanoTime() {
    synchronized (lock) {
      return nanos;
    }
  }

  @Override
  public Instant instant() {
    synchronized (lock) {
      return wallStart.plusNanos(nanos);
    }
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    synchronized (lock) {
      long due = nanos + Math.max(0, SystemClock.saturatedNanos(delay));
      if (due < nanos) {
        due = Long.MAX_VALUE;
      }
      Timer timer = new Timer(due, sequence++, task);
      timers.add(timer);
      return () -> {
        synchronized (lock) {
          timers.remove(timer);
        }
      };
    }
  }

  /**
   * Moves time forward by {@code step} and runs the tasks that became due.
   *
   * @throws IllegalArgumentException if {@code step} is negative
   */
  public void advance(Duration step) {
    Objects.requireNonNull(step, "step");
    if (step.isNegative()) {
      throw new IllegalArgumentException("step must not be negative: " + step);
    }
    long target;
    synchronized (lock) {
      target = nanos + SystemClock.saturatedNanos(step);
    }
    runUntil(target);
  }

  /** Runs the tasks that are due now without moving time. */
  public void runDueTasks() {
    runUntil(nanoTime());
  }

  /** The number of scheduled tasks that have not run yet. */
  public int pendingTasks() {
    synchronized (lock) {
      return timers.size();
    }
  }

  /** Time until the earliest pending task, or empty when nothing is scheduled. */
  public Optional<Duration> nextDeadline() {
    synchronized (lock) {
      Timer next = timers.peek();
      return next == null ? Optional.empty() : Optional.of(Duration.ofNanos(next.due - nanos));
    }
  }

  private void runUntil(long target) {
    while (true) {
      Timer next;
      synchronized (lock) {
        next = timers.peek();
        if (next == null || next.due > target) {
          nanos = Math.max(nanos, target);
          return;
        }
        timers.poll();
        nanos = Math.max(nanos, next.due);
      }
      next.task.run();
    }
  }

  private record Timer(long due, long seq, Runnable task) implements Comparable<Timer> {
    @Override
    public int compareTo(Timer other) {
      int byDue = Long.compare(due, other.due);
      return byDue != 0 ? byDue : Long.compare(seq, other.seq);
    }
  }
}
