package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Ends a timed wait on a queue's condition by the injected clock (so tests drive it with a manual
 * clock): once the timeout passes it marks itself fired and signals the condition.
 */
final class TimedWakeup implements Runnable {

  private final ReentrantLock lock;
  private final Condition condition;
  // Set once by after(); used only by the thread that armed it.
  private Clock.@Nullable Cancellable handle;

  // Guarded by lock.
  private boolean fired;

  private TimedWakeup(ReentrantLock lock, Condition condition) {
    this.lock = lock;
    this.condition = condition;
  }

  /** Arms a wakeup of {@code condition} (a condition of {@code lock}) after {@code timeout}. */
  static TimedWakeup after(Clock clock, Duration timeout, ReentrantLock lock, Condition condition) {
    TimedWakeup wakeup = new TimedWakeup(lock, condition);
    wakeup.handle = clock.schedule(timeout, wakeup);
    return wakeup;
  }

  /** Whether the timeout passed; call with the lock held. */
  boolean fired() {
    return fired;
  }

  /** Disarms the timer (no effect once it fired). */
  void cancel() {
    Clock.Cancellable armed = handle;
    if (armed != null) {
      armed.cancel();
    }
  }

  @Override
  public void run() {
    lock.lock();
    try {
      fired = true;
      condition.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
