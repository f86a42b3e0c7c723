package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** The longest delay among several limiters; stateless itself, so it needs no lock. */
final class MaxOfRateLimiter<K> implements RateLimiter<K> {

  private final List<RateLimiter<K>> limiters;

  MaxOfRateLimiter(List<RateLimiter<K>> limiters) {
    this.limiters = limiters;
  }

  @Override
  public Duration when(K key) {
    Objects.requireNonNull(key, "key");
    Duration longest = Duration.ZERO;
    for (RateLimiter<K> limiter : limiters) {
      Duration delay = limiter.when(key);
      if (delay.compareTo(longest) > 0) {
        longest = delay;
      }
    }
    return longest;
  }

  @Override
  public void forget(K key) {
    Objects.requireNonNull(key, "key");
    for (RateLimiter<K> limiter : limiters) {
      limiter.forget(key);
    }
  }

  @Override
  public int numRequeues(K key) {
    Objects.requireNonNull(key, "key");
    int most = 0;
    for (RateLimiter<K> limiter : limiters) {
      most = Math.max(most, limiter.numRequeues(key));
    }
    return most;
  }
}
