package io.podset.runtime.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  private final ManualClock clock = new ManualClock();

  @Test
  void advance_runsDueTasksInDeadlineOrder() {
    List<String> ran = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(3), () -> ran.add("c"));
    clock.schedule(Duration.ofSeconds(1), () -> ran.add("a"));
    clock.schedule(Duration.ofSeconds(2), () -> ran.add("b"));

    clock.advance(Duration.ofMillis(2500));

    assertThat(ran).containsExactly("a", "b");
    assertThat(clock.pendingTasks()).isEqualTo(1);
    assertThat(clock.nanoTime()).isEqualTo(Duration.ofMillis(2500).toNanos());
  }

  @Test
  void task_seesItsOwnDeadlineAsCurrentTime() {
    List<Long> seen = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(1), () -> seen.add(clock.nanoTime()));

    clock.advance(Duration.ofSeconds(5));

    assertThat(seen).containsExactly(Duration.ofSeconds(1).toNanos());
  }

  @Test
  void tasksScheduledByTasks_runWhenWithinTheAdvance() {
    List<String> ran = new ArrayList<>();
    clock.schedule(
        Duration.ofSeconds(1),
        () -> clock.schedule(Duration.ofSeconds(1), () -> ran.add("nested")));

    clock.advance(Duration.ofSeconds(2));

    assertThat(ran).containsExactly("nested");
  }

  @Test
  void cancel_preventsTheTask() {
    List<String> ran = new ArrayList<>();
    Clock.Cancellable handle = clock.schedule(Duration.ofSeconds(1), () -> ran.add("x"));

    handle.cancel();
    clock.advance(Duration.ofSeconds(2));

    assertThat(ran).isEmpty();
  }

  @Test
  void zeroDelay_doesNotRunOnTheSchedulingThreadUntilTimeIsDriven() {
    List<String> ran = new ArrayList<>();
    clock.schedule(Duration.ZERO, () -> ran.add("now"));
    assertThat(ran).isEmpty();

    clock.runDueTasks();

    assertThat(ran).containsExactly("now");
  }

  @Test
  void advance_rejectsNegativeSteps() {
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("step");
  }

  @Test
  void instant_movesWithTheClock() {
    var start = clock.instant();
    clock.advance(Duration.ofMinutes(1));
    assertThat(clock.instant()).isEqualTo(start.plus(Duration.ofMinutes(1)));
  }
}
