package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.benchmarks.report.Condition;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyServerTest {

  @Test
  void phaseConditions_holdForAServerThatKeptUp() {
    List<Condition> conditions =
        new LatencyServer.PhaseStats("1k", 1000, 998.7, 0, 3.2).conditions();

    assertThat(conditions)
        .extracting(Condition::name)
        .containsExactly("server_rate", "server_round_trip");
    assertThat(conditions).allMatch(Condition::holds);
    assertThat(conditions).allMatch(c -> c.appliesTo("operator.latency_p99.1k"));
    assertThat(conditions).noneMatch(c -> c.appliesTo("operator.latency_p99.10k"));
  }

  @Test
  void phaseConditions_areViolatedBySaturationSlownessOrFailures() {
    List<Condition> saturated =
        new LatencyServer.PhaseStats("1k", 1000, 1000, 0, 343.0).conditions();
    List<Condition> behind = new LatencyServer.PhaseStats("1k", 1000, 612, 0, 4).conditions();
    List<Condition> failing = new LatencyServer.PhaseStats("1k", 1000, 1000, 3, 4).conditions();

    assertThat(saturated.get(0).holds()).isTrue();
    assertThat(saturated.get(1).holds()).isFalse();
    assertThat(saturated.get(1).detail()).contains("p99 343.00 ms (bound 10.0 ms)");
    assertThat(behind.get(0).holds()).isFalse();
    assertThat(behind.get(0).detail()).contains("612 of 1000 updates/s");
    assertThat(failing.get(0).holds()).isFalse();
  }

  @Test
  void warmEnough_onceTheJitSettled_afterTheMinimumRounds_orAtTheMaximum() {
    // A settled JIT: 100 ms of compiling in a 1-second round.
    assertThat(LatencyServer.warmEnough(5, 100, 1000)).isFalse();
    assertThat(LatencyServer.warmEnough(6, 100, 1000)).isTrue();
    // Still compiling: 1.8 s of compile time in a round of 1.2 s (a thread waiting for the CPU).
    assertThat(LatencyServer.warmEnough(6, 1800, 1200)).isFalse();
    assertThat(LatencyServer.warmEnough(15, 1800, 1200)).isFalse();
    assertThat(LatencyServer.warmEnough(16, 1800, 1200)).isTrue();
  }
}
