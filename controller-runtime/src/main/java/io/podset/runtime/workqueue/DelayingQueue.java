package io.podset.runtime.workqueue;

import java.time.Duration;

/**
 * A {@link WorkQueue} that can add a key after a delay, measured and scheduled on the queue's
 * {@link io.podset.runtime.time.Clock}.
 *
 * <p>A key waits at most once: when it already waits with an earlier or equal deadline a later
 * {@link #addAfter} is ignored, and an earlier deadline replaces the waiting one. When the delay
 * elapses the key is {@link #add added}, with the usual dirty/processing rules. Shutting the queue
 * down cancels every waiting key.
 *
 * @param <K> the key type
 */
public interface DelayingQueue<K> extends WorkQueue<K> {

  /**
   * Adds {@code key} once {@code delay} has elapsed; a zero or negative delay adds it now. Ignored
   * once the queue is shutting down.
   *
   * @throws NullPointerException if an argument is null
   */
  void addAfter(K key, Duration delay);
}
