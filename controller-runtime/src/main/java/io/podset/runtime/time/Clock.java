package io.podset.runtime.time;

import java.time.Duration;
import java.time.Instant;

/**
 * A source of time that can also run tasks after a delay measured on the same time line.
 *
 * <p>Implementations are thread-safe. Scheduled tasks run on a thread owned by the clock (the
 * system clock) or on the thread that advances time (the {@link ManualClock}); a task must
 * therefore be short and must not block.
 */
public interface Clock {

  /** Monotonic time in nanoseconds; only differences between two readings are meaningful. */
  long nanoTime();

  /** Wall-clock time, for timestamps written into objects and logs. */
  Instant instant();

  /**
   * Runs {@code task} once {@code delay} has elapsed on this clock. A zero or negative delay runs
   * the task as soon as possible (never on the caller's thread for the system clock).
   *
   * @return a handle that cancels the task if it has not started
   * @throws NullPointerException if an argument is null
   */
  Cancellable schedule(Duration delay, Runnable task);

  /** The real clock: {@link System#nanoTime()}, {@link Instant#now()} and a daemon timer thread. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }

  /** Cancels a scheduled task. */
  @FunctionalInterface
  interface Cancellable {
    /** Cancels the task; a no-op when it already ran or was cancelled. */
    void cancel();
  }
}
