package io.podset.runtime.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The real clock; its timer thread is a daemon so it never keeps a JVM alive. */
final class SystemClock implements Clock {

  static final SystemClock INSTANCE = new SystemClock();

  private final ScheduledThreadPoolExecutor timer;

  private SystemClock() {
    timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "podset-clock-timer");
              thread.setDaemon(true);
              return thread;
            });
    // Cancelled delayed adds are common (a newer deadline wins); drop them right away.
    timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant instant() {
    return Instant.now();
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    long nanos = Math.max(0, saturatedNanos(delay));
    ScheduledFuture<?> future = timer.schedule(guarded(task), nanos, TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  private static Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        // One bad task must not kill the shared timer thread.
        Thread current = Thread.currentThread();
        current.getUncaughtExceptionHandler().uncaughtException(current, e);
      }
    };
  }

  static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
