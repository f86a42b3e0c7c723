package io.podset.runtime.workqueue;

import java.time.Duration;

/** Per-key exponential backoff (client-go's ItemExponentialFailureRateLimiter). */
final class ExponentialRateLimiter<K> implements RateLimiter<K> {

  private final long baseNanos;
  private final Duration max;
  private final long maxNanos;
  private final FailureCounts<K> failures = new FailureCounts<>();

  ExponentialRateLimiter(Duration base, Duration max) {
    this.baseNanos = saturatedNanos(base);
    this.max = max;
    this.maxNanos = saturatedNanos(max);
  }

  @Override
  public Duration when(K key) {
    int exponent = failures.record(key) - 1;
    if (exponent >= 62 || baseNanos > (maxNanos >> exponent)) {
      return max;
    }
    return Duration.ofNanos(baseNanos << exponent);
  }

  @Override
  public void forget(K key) {
    failures.forget(key);
  }

  @Override
  public int numRequeues(K key) {
    return failures.count(key);
  }

  static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }
}
