package io.podset.benchmarks.workqueue;

import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.DefaultControllerRateLimiter;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * client-java's {@code DefaultRateLimitingQueue} with its default controller limiter. Its delaying
 * loop runs on an executor of its own, which {@link #close()} interrupts: the loop only notices a
 * shutdown at its next heartbeat (10 s) otherwise, and benchmarks make many short-lived queues.
 */
final class ClientJavaQueue implements QueueUnderTest {

  private final ExecutorService loop =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "client-java-delaying-loop");
            thread.setDaemon(true);
            return thread;
          });
  private final DefaultRateLimitingQueue<String> queue =
      new DefaultRateLimitingQueue<>(loop, new DefaultControllerRateLimiter<>());

  @Override
  public void add(String key) {
    queue.add(key);
  }

  @Override
  public String get() throws InterruptedException {
    return queue.get();
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
    return queue.length();
  }

  @Override
  public void close() {
    queue.shutDown();
    loop.shutdownNow();
  }
}
