package io.podset.runtime.informer;

import io.github.resilience4j.core.IntervalFunction;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * The reflector's retry delays: exponential (800 ms doubling, capped at 30 s by default) with
 * jitter, starting over once a reset period has passed since the previous delay began (so a source
 * that stayed healthy for two minutes is retried quickly again).
 *
 * <p>The exponential part is resilience4j's {@link IntervalFunction#ofExponentialBackoff}; the
 * jitter adds up to {@code jitter} times the delay, drawn from an injectable random source so tests
 * can pin it. Thread-safe.
 */
final class Backoff {

  private final Clock clock;
  private final IntervalFunction intervals;
  private final long resetNanos;
  private final double jitter;
  private final DoubleSupplier random;

  private final Object lock = new Object();
  // Guarded by lock: attempts since the last reset, and when the previous delay began.
  private int attempt;
  private long lastStart;

  Backoff(
      Clock clock,
      Duration initial,
      Duration max,
      Duration resetAfter,
      double jitter,
      DoubleSupplier random) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max, got initial=" + initial + " max=" + max);
    }
    if (jitter < 0) {
      throw new IllegalArgumentException("jitter must not be negative: " + jitter);
    }
    this.intervals = IntervalFunction.ofExponentialBackoff(initial, 2.0, max);
    this.resetNanos = Objects.requireNonNull(resetAfter, "resetAfter").toNanos();
    this.jitter = jitter;
    this.random = Objects.requireNonNull(random, "random");
  }

  /** The next delay to wait, starting the sequence over if the reset period has passed. */
  Duration next() {
    long now = clock.nanoTime();
    int n;
    synchronized (lock) {
      if (attempt > 0 && now - lastStart >= resetNanos) {
        attempt = 0;
      }
      attempt++;
      lastStart = now;
      n = attempt;
    }
    long base = intervals.apply(n);
    long jittered = base + (long) (base * jitter * random.getAsDouble());
    return Duration.ofMillis(jittered);
  }
}
