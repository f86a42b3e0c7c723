package io.podset.benchmarks.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.podset.benchmarks.report.Condition;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmRoundsTest {

  /** Rounds that take the given times, in order; fails if asked for more. */
  private static WarmRounds.Round times(Double... millis) {
    Deque<Double> left = new ArrayDeque<>(List.of(millis));
    return () -> {
      if (left.isEmpty()) {
        throw new AssertionError("more rounds asked than given");
      }
      return left.removeFirst();
    };
  }

  @Test
  void run_warmsUntilTwoConsecutiveRoundsAreWithinTenPercent_thenMeasures() throws Exception {
    WarmRounds.Outcome outcome =
        WarmRounds.run(times(3000.0, 1500.0, 1000.0, 920.0, 900.0, 880.0, 910.0), 10, 3);

    // 1500 -> 1000 is 50% apart, 1000 -> 920 is 8.7%: warm after 4 rounds.
    assertThat(outcome.settled()).isTrue();
    assertThat(outcome.warmUp()).containsExactly(3000.0, 1500.0, 1000.0, 920.0);
    assertThat(outcome.measured()).containsExactly(900.0, 880.0, 910.0);
    // 10k objects: 11111, 11364, 10989 per second; the median is the 900 ms round's.
    assertThat(outcome.medianRate(10_000)).isEqualTo(10_000 * 1000.0 / 900.0);
    assertThat(outcome.describe())
        .isEqualTo(
            "settled after 4 warm-up rounds (last two 1000 and 920 ms, within 10%); warm-up ms"
                + " [3000 1500 1000 920], measured ms [900 880 910]");
  }

  @Test
  void run_thatNeverSettles_stopsWarmingAtTheLimit_andSaysSo() throws Exception {
    WarmRounds.Outcome outcome = WarmRounds.run(times(1000.0, 500.0, 1000.0, 700.0, 600.0), 3, 2);

    assertThat(outcome.settled()).isFalse();
    assertThat(outcome.warmUp()).containsExactly(1000.0, 500.0, 1000.0);
    assertThat(outcome.measured()).containsExactly(700.0, 600.0);
    // An even count: the mean of the two middle rates.
    assertThat(outcome.medianRate(600)).isCloseTo((600 / 0.7 + 600 / 0.6) / 2, within(1e-9));
    assertThat(outcome.describe()).startsWith("not settled after 3 warm-up rounds (last two 500");
  }

  @Test
  void condition_isClientWarm_forThatFigureOnly_andSurvivesItsLine() throws Exception {
    WarmRounds.Outcome settled = WarmRounds.run(times(1000.0, 950.0, 900.0), 5, 1);
    WarmRounds.Outcome not = WarmRounds.run(times(1000.0, 500.0, 900.0), 2, 1);

    Condition parsed =
        Condition.parse(settled.condition("informer.warm_sync_rate.10k").format()).orElseThrow();

    assertThat(parsed.name()).isEqualTo("client_warm");
    assertThat(parsed.holds()).isTrue();
    assertThat(parsed.detail()).isEqualTo(settled.describe());
    assertThat(parsed.appliesTo("informer.warm_sync_rate.10k")).isTrue();
    assertThat(parsed.appliesTo("informer.warm_sync_rate.50k")).isFalse();
    assertThat(parsed.appliesTo("informer.warm_sync_rateX10k")).isFalse();
    assertThat(parsed.appliesTo("informer.sync_time.10k")).isFalse();
    assertThat(Condition.parse(not.condition("informer.warm_sync_rate.10k").format()))
        .hasValueSatisfying(c -> assertThat(c.holds()).isFalse());
  }

  @Test
  void within_isTenPercentOfTheShorter_eitherWay() {
    assertThat(WarmRounds.within(1000, 1100)).isTrue();
    assertThat(WarmRounds.within(1100, 1000)).isTrue();
    assertThat(WarmRounds.within(1000, 1101)).isFalse();
    assertThat(WarmRounds.within(1101, 1000)).isFalse();
  }

  @Test
  void run_refusesTooFewRounds() {
    assertThatThrownBy(() -> WarmRounds.run(times(), 1, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2");
    assertThatThrownBy(() -> WarmRounds.run(times(), 2, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("measured rounds must be at least 1: 0");
  }
}
