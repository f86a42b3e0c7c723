package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Factories for the {@link RateLimiter}s of client-go's workqueue package.
 *
 * <p>Every limiter is thread-safe and guards its state with one lock. Arguments are validated
 * immediately; a bad one raises an {@link IllegalArgumentException} naming it.
 */
public final class RateLimiters {

  /** The per-key exponential backoff of controller-runtime's default: 5 ms doubling to 1000 s. */
  public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);

  /** The cap of the default per-key exponential backoff. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);

  /** The overall rate of controller-runtime's default limiter, in retries per second. */
  public static final double DEFAULT_QPS = 10.0;

  /** The burst of controller-runtime's default limiter. */
  public static final int DEFAULT_BURST = 100;

  private RateLimiters() {}

  /**
   * Per-key exponential backoff: the n-th retry of a key (counting from 0 since it was forgotten)
   * waits {@code base * 2^n}, capped at {@code max}.
   *
   * @throws IllegalArgumentException if {@code base} is not positive or {@code max < base}
   */
  public static <K> RateLimiter<K> exponential(Duration base, Duration max) {
    requirePositive(base, "base");
    Objects.requireNonNull(max, "max");
    if (max.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "max must not be shorter than base (" + base + "): " + max);
    }
    return new ExponentialRateLimiter<>(base, max);
  }

  /** {@link #exponential(Duration, Duration)} with 5 ms and 1000 s. */
  public static <K> RateLimiter<K> exponential() {
    return exponential(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY);
  }

  /**
   * An overall token bucket shared by all keys, refilled at {@code qps} tokens per second up to
   * {@code burst}, starting full. Like golang.org/x/time/rate's {@code Reserve}, every call takes a
   * token, going into debt when none is left, and returns how long the caller must wait for it. The
   * bucket keeps no per-key history: {@code forget} does nothing and {@code numRequeues} is 0.
   *
   * @throws IllegalArgumentException if {@code qps} is not a positive finite number or {@code burst
   *     < 1}
   */
  public static <K> RateLimiter<K> bucket(double qps, int burst, Clock clock) {
    if (!(qps > 0.0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be a positive finite number: " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1: " + burst);
    }
    return new TokenBucketRateLimiter<>(qps, burst, Objects.requireNonNull(clock, "clock"));
  }

  /**
   * The longest delay of several limiters; each of them records every retry. {@code numRequeues} is
   * the largest of theirs and {@code forget} reaches all of them.
   *
   * @throws IllegalArgumentException if no limiter is given
   */
  @SafeVarargs
  public static <K> RateLimiter<K> max(RateLimiter<K>... limiters) {
    Objects.requireNonNull(limiters, "limiters");
    if (limiters.length == 0) {
      throw new IllegalArgumentException("limiters must not be empty");
    }
    for (int i = 0; i < limiters.length; i++) {
      Objects.requireNonNull(limiters[i], "limiters[" + i + "]");
    }
    return new MaxOfRateLimiter<>(List.of(limiters));
  }

  /**
   * Per key, the first {@code maxFastAttempts} retries wait {@code fast}, later ones {@code slow}.
   *
   * @throws IllegalArgumentException if a delay is negative or {@code maxFastAttempts} is negative
   */
  public static <K> RateLimiter<K> fastSlow(Duration fast, Duration slow, int maxFastAttempts) {
    requireNotNegative(fast, "fast");
    requireNotNegative(slow, "slow");
    if (maxFastAttempts < 0) {
      throw new IllegalArgumentException(
          "maxFastAttempts must not be negative: " + maxFastAttempts);
    }
    return new FastSlowRateLimiter<>(fast, slow, maxFastAttempts);
  }

  /**
   * controller-runtime's default: {@code max(exponential(5 ms, 1000 s), bucket(10 qps, burst
   * 100))}.
   */
  public static <K> RateLimiter<K> defaultControllerRateLimiter(Clock clock) {
    return max(exponential(), bucket(DEFAULT_QPS, DEFAULT_BURST, clock));
  }

  private static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + duration);
    }
  }

  private static void requireNotNegative(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + duration);
    }
  }
}
