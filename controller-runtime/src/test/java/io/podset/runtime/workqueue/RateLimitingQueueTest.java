package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitingQueueTest {

  private final ManualClock clock = new ManualClock();
  private final RateLimitingQueue<String> queue =
      WorkQueues.<String>builder()
          .clock(clock)
          .rateLimiter(RateLimiters.exponential(Duration.ofMillis(10), Duration.ofSeconds(1)))
          .buildRateLimiting();

  @Test
  void addRateLimited_waitsTheLimitersDelay_growingPerRetry() throws InterruptedException {
    queue.addRateLimited("a");
    clock.advance(Duration.ofMillis(9));
    assertThat(queue.len()).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.poll(Duration.ZERO)).contains("a");
    queue.done("a");

    queue.addRateLimited("a");
    clock.advance(Duration.ofMillis(19));
    assertThat(queue.len()).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.len()).isEqualTo(1);
    assertThat(queue.numRequeues("a")).isEqualTo(2);
  }

  @Test
  void forget_resetsTheBackoffButKeepsTheKeyQueued() {
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    queue.add("b");

    queue.forget("a");
    queue.forget("b");

    assertThat(queue.numRequeues("a")).isZero();
    assertThat(queue.len()).isEqualTo(1);
    clock.advance(Duration.ofMillis(10));
    assertThat(queue.len()).isEqualTo(2);
    queue.addRateLimited("c");
    assertThat(clock.nextDeadline()).contains(Duration.ofMillis(10));
  }

  @Test
  void defaultLimiter_isUsedWithoutAnExplicitOne() {
    RateLimitingQueue<String> defaults =
        WorkQueues.<String>builder().clock(clock).buildRateLimiting();

    defaults.addRateLimited("a");
    defaults.addRateLimited("a");

    assertThat(clock.nextDeadline()).contains(Duration.ofMillis(5));
    assertThat(defaults.numRequeues("a")).isEqualTo(2);
    clock.advance(Duration.ofMillis(5));
    assertThat(defaults.len()).isEqualTo(1);
  }
}
