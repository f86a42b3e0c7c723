package io.podset.benchmarks.workqueue;

import io.podset.runtime.workqueue.RateLimitingQueue;
import io.podset.runtime.workqueue.WorkQueues;
import java.time.Duration;

/** Our rate-limiting queue as built by default (system clock, default limiter, no metrics). */
final class OurQueue implements QueueUnderTest {

  private final RateLimitingQueue<String> queue = WorkQueues.<String>builder().buildRateLimiting();

  @Override
  public void add(String key) {
    queue.add(key);
  }

  @Override
  public String get() throws InterruptedException {
    return queue.get().orElse(null);
  }

  @Override
  public void done(String key) {
    queue.done(key);
  }

  @Override
  public void addAfter(String key, Duration delay) {
    queue.addAfter(key, delay);
  }

  @Override
  public void addRateLimited(String key) {
    queue.addRateLimited(key);
  }

  @Override
  public int len() {
    return queue.len();
  }

  @Override
  public void close() {
    queue.shutDown();
  }
}
