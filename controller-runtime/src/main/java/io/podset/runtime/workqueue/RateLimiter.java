package io.podset.runtime.workqueue;

import java.time.Duration;

/**
 * Decides how long a key waits before it is retried. Implementations are thread-safe; obtain them
 * from {@link RateLimiters}.
 *
 * @param <K> the key type
 */
public interface RateLimiter<K> {

  /** Records one more retry of {@code key} and returns how long it should wait (never negative). */
  Duration when(K key);

  /** Forgets the retry history of {@code key} (after a success). */
  void forget(K key);

  /** The number of retries of {@code key} recorded since it was last forgotten. */
  int numRequeues(K key);
}
