package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.testkit.Eventually;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void parseStat_readsUtimePlusStime_afterANameWithSpacesAndParentheses() {
    String stat = "27541 (C2 Compiler) x) S 27540 27541 27541 0 -1 4194560 8798 106357 0 21 7 8 95";

    Map.Entry<String, Long> parsed = ThreadCpu.parseStat(stat);

    assertThat(parsed.getKey()).isEqualTo("C2 Compiler) x");
    assertThat(parsed.getValue()).isEqualTo(15);
  }

  @Test
  void parseStat_refusesWhatIsNotAStatLine() {
    assertThatThrownBy(() -> ThreadCpu.parseStat("no name here"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a /proc stat line");
  }

  @Test
  void groupsSince_sumsThreadsOfOneKind_countsNewThreadsWhole_andWhatEndedThreadsSpent() {
    ThreadCpu.Snapshot start =
        new ThreadCpu.Snapshot(
            Map.of(
                1L, new ThreadCpu.Seen("C2 CompilerThre", 100),
                2L, new ThreadCpu.Seen("podset-worker-1", 10)),
            Duration.ofMillis(1_200));
    ThreadCpu.Snapshot end =
        new ThreadCpu.Snapshot(
            Map.of(
                1L, new ThreadCpu.Seen("C2 CompilerThre", 150),
                2L, new ThreadCpu.Seen("podset-worker-1", 30),
                3L, new ThreadCpu.Seen("podset-worker-2", 5),
                4L, new ThreadCpu.Seen("C2 CompilerThre", 20)),
            Duration.ofMillis(2_200));

    Map<String, Duration> groups = ThreadCpu.groupsSince(start, end);

    // 70 + 25 ticks of 10 ms seen; the process spent 1000 ms: 50 ms in threads gone since.
    assertThat(groups)
        .containsExactly(
            Map.entry("C2 CompilerThre", Duration.ofMillis(700)),
            Map.entry("podset-worker", Duration.ofMillis(250)),
            Map.entry("(ended threads)", Duration.ofMillis(50)));
  }

  @Test
  void kind_dropsATrailingNumber_only() {
    assertThat(ThreadCpu.kind("GC Thread#1")).isEqualTo("GC Thread");
    assertThat(ThreadCpu.kind("C1 CompilerThre")).isEqualTo("C1 CompilerThre");
    assertThat(ThreadCpu.kind("podset-worker-12")).isEqualTo("podset-worker");
  }

  @Test
  void snapshot_seesThisJvmsThreads() throws Exception {
    try (ThreadCpu cpu = ThreadCpu.of(ProcessHandle.current())) {
      ThreadCpu.Snapshot snapshot = cpu.snapshot(Duration.ZERO);

      assertThat(snapshot.threads().values())
          .extracting(ThreadCpu.Seen::name)
          .contains("thread-cpu");
    }
  }

  @Test
  void close_endsThePollingThread() {
    Set<Thread> before = pollers();
    ThreadCpu cpu = ThreadCpu.of(ProcessHandle.current());
    Set<Thread> started = pollers();
    started.removeAll(before);
    assertThat(started).as("the poller started by of()").hasSize(1);

    cpu.close();

    Thread poller = started.iterator().next();
    Eventually.within(Duration.ofSeconds(10))
        .until("the poller thread ended", () -> !poller.isAlive());
  }

  private static Set<Thread> pollers() {
    Set<Thread> out = new HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals("thread-cpu") && thread.isAlive()) {
        out.add(thread);
      }
    }
    return out;
  }
}
