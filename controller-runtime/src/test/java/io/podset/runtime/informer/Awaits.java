package io.podset.runtime.informer;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting on conditions with a deadline (no fixed sleeps). */
public final class Awaits {

  public static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final long POLL_NANOS = Duration.ofMillis(1).toNanos();

  private Awaits() {}

  public static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting for: " + what);
      }
      // Poll, leaving the (shared, small) CPU to the threads under test.
      LockSupport.parkNanos(POLL_NANOS);
    }
  }
}
