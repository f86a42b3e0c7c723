package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A {@link RateLimitingQueue}: a {@link DelayingWorkQueue} whose delays a limiter decides. */
final class RateLimitingWorkQueue<K> implements RateLimitingQueue<K> {

  private final DelayingWorkQueue<K> queue;
  private final RateLimiter<K> limiter;

  /** Null without metrics. */
  private final @Nullable QueueMetrics metrics;

  RateLimitingWorkQueue(DelayingWorkQueue<K> queue, RateLimiter<K> limiter) {
    this.queue = Objects.requireNonNull(queue, "queue");
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.metrics = queue.fifo().metrics();
  }

  @Override
  public void addRateLimited(K key) {
    Objects.requireNonNull(key, "key");
    if (metrics != null) {
      metrics.retried();
    }
    queue.addAfter(key, limiter.when(key));
  }

  @Override
  public void forget(K key) {
    limiter.forget(Objects.requireNonNull(key, "key"));
  }

  @Override
  public int numRequeues(K key) {
    return limiter.numRequeues(Objects.requireNonNull(key, "key"));
  }

  @Override
  public void addAfter(K key, Duration delay) {
    queue.addAfter(key, delay);
  }

  @Override
  public void add(K key) {
    queue.add(key);
  }

  @Override
  public Optional<K> get() throws InterruptedException {
    return queue.get();
  }

  @Override
  public Optional<K> poll(Duration timeout) throws InterruptedException {
    return queue.poll(timeout);
  }

  @Override
  public void done(K key) {
    queue.done(key);
  }

  @Override
  public int len() {
    return queue.len();
  }

  @Override
  public void shutDown() {
    queue.shutDown();
  }

  @Override
  public void shutDownWithDrain() {
    queue.shutDownWithDrain();
  }

  @Override
  public boolean shutDownWithDrain(Duration timeout) {
    return queue.shutDownWithDrain(timeout);
  }

  @Override
  public boolean isShuttingDown() {
    return queue.isShuttingDown();
  }

  @Override
  public void close() {
    queue.close();
  }
}
