package io.podset.runtime.workqueue;

/**
 * A {@link DelayingQueue} whose delays come from a {@link RateLimiter}: a key that keeps failing is
 * retried later and later, until {@link #forget(Object)} resets it.
 *
 * @param <K> the key type
 */
public interface RateLimitingQueue<K> extends DelayingQueue<K> {

  /**
   * Adds {@code key} after the delay the limiter assigns to it (counting one more retry for it, and
   * in {@code workqueue_retries_total}).
   */
  void addRateLimited(K key);

  /**
   * Resets the limiter's per-key history (call it when the key was processed successfully). Does
   * not remove the key from the queue.
   */
  void forget(K key);

  /** How many times {@code key} was rate-limited since it was last forgotten. */
  int numRequeues(K key);
}
