package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {

  private static final Duration SHORT = Duration.ofMillis(50);

  @Test
  void await_conditionMadeTrueByAnotherThread_returns() throws InterruptedException {
    AtomicInteger value = new AtomicInteger();
    Thread writer = new Thread(() -> value.set(7));
    writer.start();
    Eventually.await("the writer", () -> value.get() == 7);
    writer.join();
    assertThat(value).hasValue(7);
  }

  @Test
  void await_returnsTheFirstAcceptedObservation() {
    AtomicInteger calls = new AtomicInteger();
    int seen = Eventually.await("three calls", calls::incrementAndGet, n -> n >= 3);
    assertThat(seen).isEqualTo(3);
  }

  @Test
  void until_timeout_namesWhatTheTimeoutAndTheLastObservedValue() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Eventually.within(SHORT).until("a large count", calls::incrementAndGet, n -> false))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("timed out after PT0.05S waiting for a large count")
        .hasMessageEndingWith("last observed: " + calls.get());
  }

  @Test
  void until_timeout_appendsTheReportedContext() {
    assertThatThrownBy(
            () -> Eventually.within(SHORT).reporting(() -> "log: boom").until("never", () -> false))
        .isInstanceOf(AssertionError.class)
        .hasMessage("timed out after PT0.05S waiting for never; last observed: false; log: boom");
  }

  @Test
  void until_conditionThrows_propagatesAtOnce() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Eventually.await(
                    "a failing condition",
                    () -> {
                      calls.incrementAndGet();
                      throw new IllegalStateException("bad state");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("bad state");
    assertThat(calls).hasValue(1);
  }

  @Test
  void until_interrupted_failsNamingWhat() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Eventually.await("the impossible", () -> false))
          .isInstanceOf(AssertionError.class)
          .hasMessage("interrupted while waiting for the impossible");
    } finally {
      assertThat(Thread.interrupted()).isTrue();
    }
  }

  @Test
  void polling_longInterval_stillEvaluatesAgainUntilTrue() {
    AtomicInteger calls = new AtomicInteger();
    int seen =
        Eventually.within(Duration.ofSeconds(30))
            .polling(Duration.ofMillis(5))
            .until("two calls", calls::incrementAndGet, n -> n == 2);
    assertThat(seen).isEqualTo(2);
    assertThatThrownBy(() -> Eventually.within(SHORT).polling(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be positive, was PT0S");
  }

  @Test
  void within_nonPositiveTimeout_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> Eventually.within(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout must be positive, was PT0S");
    assertThatThrownBy(() -> Eventually.within(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout must be positive, was PT-1S");
  }
}
