package io.podset.runtime.informer;

import io.github.resilience4j.core.IntervalFunction;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The reflector's retry delays: exponential (800 ms doubling, capped at 30 s by default) with
 * jitter, starting over once a reset period has passed since the previous delay began (so a source
 * that stayed healthy for two minutes is retried quickly again), or at once on {@link #reset()}.
 *
 * <p>Where we differ from client-go: client-go's backoff manager starts over only after the reset
 * period (2 min) without a failure, so under recurring faults every retry waits the cap (30 s plus
 * jitter) even though each attempt in between succeeded. The reflector calls {@link #reset()} once
 * a list completed, a watch delivered its first event or stayed open for a second: the delays grow
 * only while attempts keep failing. A failure that carries the server's {@code Retry-After} waits
 * that long instead ({@link #next(Duration)}): the server said when to come back, and neither an
 * earlier nor a much later retry helps it or us.
 *
 * <p>A caller may cap one delay lower than the maximum ({@link #next(Duration, Duration)}): the
 * reflector does for re-opening a watch or asking a list page again, which cost the server little.
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
  private final long maxMillis;

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
    this.maxMillis = max.toMillis();
    this.resetNanos = Objects.requireNonNull(resetAfter, "resetAfter").toNanos();
    this.jitter = jitter;
    this.random = Objects.requireNonNull(random, "random");
  }

  /** The next delay to wait, starting the sequence over if the reset period has passed. */
  Duration next() {
    return next(null);
  }

  /**
   * The next delay after a failure: {@code retryAfter} (capped at the maximum, plus jitter) when
   * the server asked for it, without advancing the exponential sequence; else {@link #next()}.
   */
  Duration next(@Nullable Duration retryAfter) {
    return next(retryAfter, maxMillis);
  }

  /**
   * As {@link #next(Duration)}, but the exponential delay (before jitter) is at most {@code cap}:
   * for attempts that cost the server little, the sequence still advances as for any other.
   */
  Duration next(@Nullable Duration retryAfter, Duration cap) {
    return next(retryAfter, Math.min(cap.toMillis(), maxMillis));
  }

  private Duration next(@Nullable Duration retryAfter, long capMillis) {
    if (retryAfter != null && !retryAfter.isNegative()) {
      long base = Math.min(retryAfter.toMillis(), maxMillis);
      return Duration.ofMillis(base + (long) (base * jitter * random.getAsDouble()));
    }
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
    long base = Math.min(intervals.apply(n), capMillis);
    long jittered = base + (long) (base * jitter * random.getAsDouble());
    return Duration.ofMillis(jittered);
  }

  /** The last attempt succeeded: the next delay is the initial one again. */
  void reset() {
    synchronized (lock) {
      attempt = 0;
    }
  }
}
