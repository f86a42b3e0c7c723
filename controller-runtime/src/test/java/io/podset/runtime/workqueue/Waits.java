package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Condition waits with a deadline, so tests never sleep for a fixed time. */
final class Waits {

  private Waits() {}

  static void until(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  /** Waits until {@code thread} is parked in a wait (the queue's condition or a timed wait). */
  static void untilWaiting(Thread thread) {
    until(
        thread.getName() + " waits",
        () ->
            thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING);
  }
}
