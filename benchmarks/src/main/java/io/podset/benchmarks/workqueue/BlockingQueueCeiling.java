package io.podset.benchmarks.workqueue;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A bare {@link LinkedBlockingQueue}: no deduplication, no processing set, no delays. It is the
 * ceiling a work queue is measured against. Bounded at {@value #CAPACITY} keys so a producer that
 * outruns the workers blocks instead of growing it without end (a work queue stays bounded by its
 * number of distinct keys).
 */
final class BlockingQueueCeiling implements QueueUnderTest {

  static final int CAPACITY = 10_000;

  /** Marks the end of the queue; compared by identity. */
  private static final String END = new String("end");

  private final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>(CAPACITY);

  @Override
  public void add(String key) {
    try {
      queue.put(key);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while adding " + key, e);
    }
  }

  @Override
  public String get() throws InterruptedException {
    String key = queue.take();
    if (key == END) {
      queue.put(END); // pass the end on to the next waiting worker
      return null;
    }
    return key;
  }

  @Override
  public void done(String key) {
    // Nothing is tracked while a key is processed.
  }

  @Override
  public void addAfter(String key, Duration delay) {
    throw new UnsupportedOperationException("a bare blocking queue has no delayed adds");
  }

  @Override
  public void addRateLimited(String key) {
    throw new UnsupportedOperationException("a bare blocking queue has no rate limiting");
  }

  @Override
  public int len() {
    return queue.size();
  }

  /** Queues the end marker after the keys already waiting: workers drain them first. */
  @Override
  public void close() {
    add(END);
  }
}
