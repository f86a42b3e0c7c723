package io.podset.runtime.informer;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on conditions with a deadline (no fixed sleeps). */
final class Awaits {

  static final Duration DEADLINE = Duration.ofSeconds(10);

  private Awaits() {}

  static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting for: " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }
}
