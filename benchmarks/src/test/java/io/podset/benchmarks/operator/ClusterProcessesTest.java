package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterProcessesTest {

  @Test
  void machineBusy_countsAllButIdleAndIowait_inHundredthsOfASecond() {
    String stat = "cpu  100 20 30 5000 70 4 6 2 0 0\ncpu0 50 10 15 2500 35 2 3 1 0 0\n";

    assertThat(ClusterProcesses.machineBusy(stat)).isEqualTo(Duration.ofMillis(10 * 162));
  }

  @Test
  void machineBusy_refusesWhatIsNotProcStat() {
    assertThatThrownBy(() -> ClusterProcesses.machineBusy("intr 1 2 3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not /proc/stat");
  }

  @Test
  void othersSince_isTheMachinesBusyTimeTheRunDidNotUse_perSecondOfWallTime() {
    ClusterProcesses.Usage start =
        new ClusterProcesses.Usage(Duration.ofSeconds(100), Duration.ofSeconds(10));
    // 20 s of wall time: the machine was busy 30 s, the run used 25 s of it.
    ClusterProcesses.Usage end =
        new ClusterProcesses.Usage(Duration.ofSeconds(130), Duration.ofSeconds(35));

    assertThat(end.othersSince(start, Duration.ofSeconds(20))).isEqualTo(0.25);
    // The run alone: nothing left for others, and never below zero (ticks are coarse).
    ClusterProcesses.Usage alone =
        new ClusterProcesses.Usage(Duration.ofSeconds(125), Duration.ofSeconds(36));
    assertThat(alone.othersSince(start, Duration.ofSeconds(20))).isZero();
  }
}
