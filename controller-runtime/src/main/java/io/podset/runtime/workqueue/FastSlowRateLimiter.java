package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;

/** A fixed fast delay for the first attempts of a key, then a fixed slow one. */
final class FastSlowRateLimiter<K> implements RateLimiter<K> {

  private final Duration fast;
  private final Duration slow;
  private final int maxFastAttempts;
  // Guarded by itself: retries recorded per key since it was last forgotten; absent means 0.
  private final HashMap<K, Integer> failures = new HashMap<>();

  FastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
    this.fast = fast;
    this.slow = slow;
    this.maxFastAttempts = maxFastAttempts;
  }

  @Override
  public Duration when(K key) {
    Objects.requireNonNull(key, "key");
    int attempts;
    synchronized (failures) {
      Integer previous = failures.get(key);
      attempts = previous == null ? 1 : previous == Integer.MAX_VALUE ? previous : previous + 1;
      failures.put(key, attempts);
    }
    return attempts <= maxFastAttempts ? fast : slow;
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
}
