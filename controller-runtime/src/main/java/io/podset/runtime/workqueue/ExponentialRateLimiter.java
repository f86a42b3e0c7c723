package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;

/** Per-key exponential backoff (client-go's ItemExponentialFailureRateLimiter). */
final class ExponentialRateLimiter<K> implements RateLimiter<K> {

  private final long baseNanos;
  private final Duration max;
  private final long maxNanos;
  // Guarded by itself: retries recorded per key since it was last forgotten; absent means 0.
  private final HashMap<K, Integer> failures = new HashMap<>();

  ExponentialRateLimiter(Duration base, Duration max) {
    this.baseNanos = saturatedNanos(base);
    this.max = max;
    this.maxNanos = saturatedNanos(max);
  }

  @Override
  public Duration when(K key) {
    Objects.requireNonNull(key, "key");
    int exponent;
    synchronized (failures) {
      Integer previous = failures.get(key);
      exponent = previous == null ? 0 : previous;
      failures.put(key, exponent == Integer.MAX_VALUE ? exponent : exponent + 1);
    }
    if (exponent >= 62 || baseNanos > (maxNanos >> exponent)) {
      return max;
    }
    return Duration.ofNanos(baseNanos << exponent);
  }

  @Override
  public void forget(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (failures) {
      failures.remove(key);
    }
  }

  @Override
  public int numRequeues(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (failures) {
      Integer count = failures.get(key);
      return count == null ? 0 : count;
    }
  }

  static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }
}
