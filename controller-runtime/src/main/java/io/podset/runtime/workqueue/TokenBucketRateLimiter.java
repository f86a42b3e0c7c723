package io.podset.runtime.workqueue;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * An overall token bucket with reservation semantics (golang.org/x/time/rate's {@code Reserve}):
 * each {@link #when} takes a token now, possibly into debt, and returns the wait until it is paid.
 */
final class TokenBucketRateLimiter<K> implements RateLimiter<K> {

  private final double qps;
  private final int burst;
  private final Clock clock;
  private final Object lock = new Object();
  // Guarded by lock: tokens available at clock time `last` (negative when reservations are ahead
  // of the refill), never above burst.
  private double tokens;
  private long last;

  TokenBucketRateLimiter(double qps, int burst, Clock clock) {
    this.qps = qps;
    this.burst = burst;
    this.clock = clock;
    this.tokens = burst;
    this.last = clock.nanoTime();
  }

  @Override
  public Duration when(K key) {
    Objects.requireNonNull(key, "key");
    long now = clock.nanoTime();
    double available;
    synchronized (lock) {
      long elapsed = now - last;
      if (elapsed > 0L) {
        tokens = Math.min(burst, tokens + elapsed * qps / 1e9);
        last = now;
      }
      tokens -= 1.0;
      available = tokens;
    }
    if (available >= 0.0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-available * 1e9 / qps));
  }

  @Override
  public void forget(K key) {
    Objects.requireNonNull(key, "key");
  }

  @Override
  public int numRequeues(K key) {
    Objects.requireNonNull(key, "key");
    return 0;
  }
}
