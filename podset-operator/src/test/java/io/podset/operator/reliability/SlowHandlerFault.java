package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.event.Event;
import java.time.Duration;
import java.util.Random;
import java.util.function.Predicate;

/**
 * A slow event handler, as a fault: installed as the operator controller's event filter ({@link
 * io.podset.runtime.controller.ControllerBuilder#withEventFilter}), which runs before the
 * controller's own handlers, it passes every event but, while {@link #slowDown switched on}, blocks
 * on some of them for a while. The controller's handlers run inline, where the informer applies a
 * change to its cache, so a blocked event delays that informer's cache, its other handlers and the
 * reconciles they trigger (with handlers on threads of their own it delayed only the handlers,
 * behind a current cache: the race that let late events meet the expectations of later creates).
 *
 * <p>{@link #stop()} releases every blocked thread at once and ends the fault. Thread-safe.
 */
final class SlowHandlerFault implements Predicate<Event<? extends HasMetadata>> {

  private final Object lock = new Object();
  private final Random random;
  // All guarded by lock.
  private long untilNanos;
  private double probability;
  private long delayNanos;
  private long blocked;
  private boolean stopped;

  SlowHandlerFault(long seed) {
    this.random = new Random(seed);
  }

  /**
   * From now on for {@code lasting}, blocks the handler thread for {@code delay} on each event with
   * probability {@code probability}.
   */
  void slowDown(Duration lasting, double probability, Duration delay) {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      this.untilNanos = System.nanoTime() + lasting.toNanos();
      this.probability = probability;
      this.delayNanos = delay.toNanos();
    }
  }

  /** Ends the fault and releases every blocked handler thread. */
  void stop() {
    synchronized (lock) {
      stopped = true;
      untilNanos = System.nanoTime();
      lock.notifyAll();
    }
  }

  /** How many events a handler thread was blocked on. */
  long blocked() {
    synchronized (lock) {
      return blocked;
    }
  }

  @Override
  public boolean test(Event<? extends HasMetadata> event) {
    synchronized (lock) {
      long now = System.nanoTime();
      if (stopped || now - untilNanos >= 0 || random.nextDouble() >= probability) {
        return true;
      }
      blocked++;
      long releaseAt = now + delayNanos;
      // Blocked until the delay is over or the fault is stopped (wait releases the lock).
      while (!stopped && System.nanoTime() - releaseAt < 0) {
        long remaining = releaseAt - System.nanoTime();
        try {
          lock.wait(Math.max(1, remaining / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return true;
        }
      }
      return true;
    }
  }
}
