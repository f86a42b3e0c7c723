package io.podset.runtime.workqueue;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RateLimitingQueue}: a {@link DelayingWorkQueue} whose retry delays a limiter decides.
 */
final class RateLimitingWorkQueue<K> extends DelayingWorkQueue<K> implements RateLimitingQueue<K> {

  private final RateLimiter<K> limiter;

  /** Null without metrics. */
  private final @Nullable QueueMetrics metrics;

  RateLimitingWorkQueue(FifoWorkQueue<K> queue, RateLimiter<K> limiter) {
    super(queue);
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.metrics = queue.metrics();
  }

  @Override
  public void addRateLimited(K key) {
    Objects.requireNonNull(key, "key");
    if (metrics != null) {
      metrics.retried();
    }
    addAfter(key, limiter.when(key));
  }

  @Override
  public void forget(K key) {
    limiter.forget(Objects.requireNonNull(key, "key"));
  }

  @Override
  public int numRequeues(K key) {
    return limiter.numRequeues(Objects.requireNonNull(key, "key"));
  }
}
