package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  private final ManualClock clock = new ManualClock();
  private final WorkQueue<String> queue = WorkQueues.<String>builder().clock(clock).build();

  private String take() throws InterruptedException {
    return queue.poll(Duration.ZERO).orElseThrow(() -> new AssertionError("queue is empty"));
  }

  @Test
  void get_handsOutKeysInTheOrderTheyWereAdded() throws InterruptedException {
    queue.add("a");
    queue.add("b");
    queue.add("c");

    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
    assertThat(queue.get()).contains("c");
    assertThat(queue.len()).isZero();
  }

  @Test
  void add_whileDirty_isNoOp() throws InterruptedException {
    queue.add("a");
    queue.add("b");
    queue.add("a");

    assertThat(queue.len()).isEqualTo(2);
    assertThat(take()).isEqualTo("a");
    assertThat(take()).isEqualTo("b");
    assertThat(queue.poll(Duration.ZERO)).isEmpty();
  }

  @Test
  void add_whileProcessing_isNotHandedToAnotherWorker() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");

    queue.add("a");

    assertThat(queue.len()).isZero();
    assertThat(queue.poll(Duration.ZERO)).isEmpty();
  }

  @Test
  void add_whileProcessing_requeuesOnDone() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    queue.add("a");
    queue.add("a");

    queue.done("a");

    assertThat(queue.len()).isEqualTo(1);
    assertThat(take()).isEqualTo("a");
    queue.done("a");
    assertThat(queue.poll(Duration.ZERO)).isEmpty();
  }

  @Test
  void requeuedKey_goesBehindKeysAlreadyWaiting() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    queue.add("a");
    queue.add("b");

    queue.done("a");

    assertThat(take()).isEqualTo("b");
    assertThat(take()).isEqualTo("a");
  }

  @Test
  void done_withoutNewAdd_forgetsTheKey() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");

    queue.done("a");

    assertThat(queue.len()).isZero();
    queue.add("a");
    assertThat(take()).isEqualTo("a");
  }

  @Test
  void done_forKeyNotBeingProcessed_throwsNamingTheKey() throws InterruptedException {
    assertThatThrownBy(() -> queue.done("ghost"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ghost");

    queue.add("a");
    assertThatThrownBy(() -> queue.done("a")).isInstanceOf(IllegalStateException.class);
    assertThat(take()).isEqualTo("a");
    queue.done("a");
    assertThatThrownBy(() -> queue.done("a")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nullKeys_areRejected() {
    assertThatThrownBy(() -> queue.add(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> queue.done(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> queue.poll(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void get_blocksUntilAKeyIsAdded() throws Exception {
    AtomicReference<Thread> worker = new AtomicReference<>();
    CompletableFuture<Optional<String>> got =
        CompletableFuture.supplyAsync(
            () -> {
              worker.set(Thread.currentThread());
              return uninterruptibly(queue::get);
            });
    Waits.until("worker started", () -> worker.get() != null);
    Waits.untilWaiting(worker.get());
    assertThat(got).isNotDone();

    queue.add("a");

    assertThat(got.get(10, TimeUnit.SECONDS)).contains("a");
  }

  @Test
  void poll_waitsOnTheQueueClock() throws Exception {
    CompletableFuture<Optional<String>> got = new CompletableFuture<>();
    Thread worker =
        new Thread(() -> got.complete(uninterruptibly(() -> queue.poll(Duration.ofSeconds(5)))));
    worker.start();
    Waits.untilWaiting(worker);
    Waits.until("timer scheduled", () -> clock.pendingTasks() == 1);

    clock.advance(Duration.ofMillis(4999));
    assertThat(got).isNotDone();
    clock.advance(Duration.ofMillis(1));

    assertThat(got.get(10, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void poll_returnsAKeyAddedBeforeTheTimeoutAndCancelsItsTimer() throws Exception {
    CompletableFuture<Optional<String>> got = new CompletableFuture<>();
    Thread worker =
        new Thread(() -> got.complete(uninterruptibly(() -> queue.poll(Duration.ofSeconds(5)))));
    worker.start();
    Waits.untilWaiting(worker);

    queue.add("a");

    assertThat(got.get(10, TimeUnit.SECONDS)).contains("a");
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void get_interrupted_throwsAndLeavesKeysForOthers() throws Exception {
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    Thread worker =
        new Thread(
            () -> {
              try {
                queue.get();
                failure.complete(null);
              } catch (InterruptedException e) {
                failure.complete(e);
              }
            });
    worker.start();
    Waits.untilWaiting(worker);

    worker.interrupt();

    assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    queue.add("a");
    assertThat(take()).isEqualTo("a");
  }

  @Test
  void shutDown_wakesWaitingWorkersWithEmpty() throws Exception {
    CompletableFuture<Optional<String>> first = new CompletableFuture<>();
    CompletableFuture<Optional<String>> second = new CompletableFuture<>();
    Thread one = new Thread(() -> first.complete(uninterruptibly(queue::get)));
    Thread two = new Thread(() -> second.complete(uninterruptibly(queue::get)));
    one.start();
    two.start();
    Waits.untilWaiting(one);
    Waits.untilWaiting(two);

    queue.shutDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEmpty();
    assertThat(second.get(10, TimeUnit.SECONDS)).isEmpty();
    assertThat(queue.isShuttingDown()).isTrue();
  }

  @Test
  void shutDown_dropsWaitingKeysAndIgnoresLaterAdds() throws InterruptedException {
    queue.add("a");
    queue.add("b");

    queue.shutDown();
    queue.add("c");

    assertThat(queue.len()).isZero();
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDown_keyBeingProcessed_isNotRequeuedOnDone() throws InterruptedException {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    queue.add("a");

    queue.close();
    queue.done("a");

    assertThat(queue.len()).isZero();
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDownWithDrain_letsWorkersFinishQueuedAndRequeuedKeys() throws Exception {
    queue.add("a");
    queue.add("b");
    assertThat(take()).isEqualTo("a");
    queue.add("a");
    CompletableFuture<Void> drained = new CompletableFuture<>();
    Thread closer =
        new Thread(
            () -> {
              queue.shutDownWithDrain();
              drained.complete(null);
            });
    closer.start();
    Waits.until("shutting down", queue::isShuttingDown);
    Waits.untilWaiting(closer);

    queue.add("c");
    assertThat(take()).isEqualTo("b");
    queue.done("b");
    assertThat(drained).isNotDone();
    queue.done("a");
    assertThat(take()).isEqualTo("a");
    assertThat(drained).isNotDone();
    queue.done("a");

    drained.get(10, TimeUnit.SECONDS);
    assertThat(queue.get()).isEmpty();
  }

  @Test
  void shutDownWithDrain_onIdleQueue_returnsAtOnce() {
    assertThat(queue.shutDownWithDrain(Duration.ofSeconds(1))).isTrue();
    queue.shutDownWithDrain();
    assertThat(queue.isShuttingDown()).isTrue();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void shutDownWithDrain_withTimeout_givesUpOnTheQueueClock() throws Exception {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    CompletableFuture<Boolean> drained = new CompletableFuture<>();
    Thread closer =
        new Thread(() -> drained.complete(queue.shutDownWithDrain(Duration.ofSeconds(30))));
    closer.start();
    Waits.untilWaiting(closer);
    Waits.until("timer scheduled", () -> clock.pendingTasks() == 1);

    clock.advance(Duration.ofSeconds(30));

    assertThat(drained.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(queue.isShuttingDown()).isTrue();
  }

  @Test
  void shutDown_releasesAThreadWaitingForDrain() throws Exception {
    queue.add("a");
    assertThat(take()).isEqualTo("a");
    CompletableFuture<Boolean> drained = new CompletableFuture<>();
    Thread closer =
        new Thread(() -> drained.complete(queue.shutDownWithDrain(Duration.ofSeconds(30))));
    closer.start();
    Waits.untilWaiting(closer);

    queue.shutDown();

    assertThat(drained.get(10, TimeUnit.SECONDS)).isFalse();
  }

  @FunctionalInterface
  interface Blocking<T> {
    T call() throws InterruptedException;
  }

  static <T> T uninterruptibly(Blocking<T> call) {
    try {
      return call.call();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
