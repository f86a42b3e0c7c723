package io.podset.runtime.workqueue;

import java.time.Duration;

/** A fixed fast delay for the first attempts of a key, then a fixed slow one. */
final class FastSlowRateLimiter<K> implements RateLimiter<K> {

  private final Duration fast;
  private final Duration slow;
  private final int maxFastAttempts;
  private final FailureCounts<K> failures = new FailureCounts<>();

  FastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
    this.fast = fast;
    this.slow = slow;
    this.maxFastAttempts = maxFastAttempts;
  }

  @Override
  public Duration when(K key) {
    int attempts = failures.record(key);
    return attempts <= maxFastAttempts ? fast : slow;
  }

  @Override
  public void forget(K key) {
    failures.forget(key);
  }

  @Override
  public int numRequeues(K key) {
    return failures.count(key);
  }
}
