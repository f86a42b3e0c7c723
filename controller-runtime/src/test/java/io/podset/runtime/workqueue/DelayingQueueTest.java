package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DelayingQueueTest {

  private final ManualClock clock = new ManualClock();
  private final DelayingQueue<String> queue =
      WorkQueues.<String>builder().clock(clock).buildDelaying();

  private String take() throws InterruptedException {
    return queue.poll(Duration.ZERO).orElseThrow(() -> new AssertionError("queue is empty"));
  }

  @Test
  void addAfter_addsOnceTheDelayElapses() throws InterruptedException {
    queue.addAfter("a", Duration.ofSeconds(1));

    clock.advance(Duration.ofMillis(999));
    assertThat(queue.len()).isZero();
    clock.advance(Duration.ofMillis(1));

    assertThat(queue.len()).isEqualTo(1);
    assertThat(take()).isEqualTo("a");
  }

  @Test
  void addAfter_manyKeys_armOneTimer_andFireInDeadlineOrder() throws InterruptedException {
    for (int i = 1000; i >= 1; i--) {
      queue.addAfter("k" + i, Duration.ofMillis(i));
    }
    assertThat(clock.pendingTasks()).isEqualTo(1);

    clock.advance(Duration.ofMillis(3));
    assertThat(queue.len()).isEqualTo(3);
    assertThat(take()).isEqualTo("k1");
    assertThat(take()).isEqualTo("k2");
    assertThat(take()).isEqualTo("k3");
    assertThat(clock.pendingTasks()).isEqualTo(1);
    assertThat(clock.nextDeadline()).contains(Duration.ofMillis(1));

    clock.advance(Duration.ofMillis(997));
    assertThat(queue.len()).isEqualTo(997);
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_replacedDeadline_leavesNoTimerForTheOldOne() throws InterruptedException {
    queue.addAfter("a", Duration.ofSeconds(10));
    queue.addAfter("a", Duration.ofSeconds(1));

    clock.advance(Duration.ofSeconds(1));
    assertThat(take()).isEqualTo("a");
    queue.done("a");
    clock.advance(Duration.ofSeconds(20));

    assertThat(queue.len()).isZero();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_withZeroOrNegativeDelay_addsImmediately() {
    queue.addAfter("a", Duration.ZERO);
    queue.addAfter("b", Duration.ofSeconds(-1));

    assertThat(queue.len()).isEqualTo(2);
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_laterDeadlineForWaitingKey_isIgnored() {
    queue.addAfter("a", Duration.ofSeconds(1));
    queue.addAfter("a", Duration.ofSeconds(5));
    queue.addAfter("a", Duration.ofSeconds(1));

    assertThat(clock.pendingTasks()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.len()).isEqualTo(1);
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_earlierDeadlineForWaitingKey_replacesIt() throws InterruptedException {
    queue.addAfter("a", Duration.ofSeconds(5));
    clock.advance(Duration.ofSeconds(1));
    queue.addAfter("a", Duration.ofSeconds(2));

    clock.advance(Duration.ofSeconds(2));
    assertThat(queue.len()).isEqualTo(1);
    assertThat(take()).isEqualTo("a");
    queue.done("a");

    clock.advance(Duration.ofSeconds(10));
    assertThat(queue.len()).isZero();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_deadlinesAreComparedOnTheClock_notByDelay() {
    queue.addAfter("a", Duration.ofSeconds(3));
    clock.advance(Duration.ofSeconds(2));

    // 2 s from now is later than the 1 s left on the waiting deadline.
    queue.addAfter("a", Duration.ofSeconds(2));

    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.len()).isEqualTo(1);
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void addAfter_keysWaitIndependently() throws InterruptedException {
    queue.addAfter("slow", Duration.ofSeconds(2));
    queue.addAfter("fast", Duration.ofSeconds(1));

    clock.advance(Duration.ofSeconds(1));
    assertThat(take()).isEqualTo("fast");
    clock.advance(Duration.ofSeconds(1));
    assertThat(take()).isEqualTo("slow");
  }

  @Test
  void delayedAdd_ofDirtyKey_coalesces() {
    queue.add("a");
    queue.addAfter("a", Duration.ofSeconds(1));

    clock.advance(Duration.ofSeconds(1));

    assertThat(queue.len()).isEqualTo(1);
  }

  @Test
  void delayedAdd_ofKeyBeingProcessed_requeuesOnDone() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    queue.addAfter("a", Duration.ofSeconds(1));

    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.len()).isZero();
    queue.done("a");

    assertThat(take()).isEqualTo("a");
  }

  @Test
  void addAfter_waitingKeyCanWaitAgainOnceAdded() {
    queue.addAfter("a", Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));

    queue.addAfter("a", Duration.ofSeconds(5));

    assertThat(clock.pendingTasks()).isEqualTo(1);
  }

  @Test
  void shutDown_cancelsWaitingKeysAndIgnoresLaterDelayedAdds() {
    queue.addAfter("a", Duration.ofSeconds(1));

    queue.shutDown();
    queue.addAfter("b", Duration.ofSeconds(1));
    queue.addAfter("c", Duration.ZERO);

    assertThat(clock.pendingTasks()).isZero();
    clock.advance(Duration.ofSeconds(2));
    assertThat(queue.len()).isZero();
  }

  @Test
  void shutDownWithDrain_cancelsWaitingKeys() {
    queue.addAfter("a", Duration.ofSeconds(1));

    assertThat(queue.shutDownWithDrain(Duration.ofSeconds(1))).isTrue();

    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void hugeDelay_isAccepted() {
    queue.addAfter("a", Duration.ofSeconds(Long.MAX_VALUE));
    queue.addAfter("a", Duration.ofDays(365));

    clock.advance(Duration.ofDays(365));

    assertThat(queue.len()).isEqualTo(1);
  }

  @Test
  void addAfter_onTheSystemClock_addsFromTheTimerThread() throws InterruptedException {
    DelayingQueue<String> real = WorkQueues.<String>builder().buildDelaying();
    long start = System.nanoTime();

    real.addAfter("a", Duration.ofMillis(20));
    real.addAfter("a", Duration.ofMinutes(5));

    assertThat(real.get()).contains("a");
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    real.shutDown();
  }

  @Test
  void nullArguments_areRejected() {
    assertThatThrownBy(() -> queue.addAfter(null, Duration.ZERO))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> queue.addAfter("a", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("delay");
  }
}
