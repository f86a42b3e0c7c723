package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleReportTest {

  private static final Condition QUIET =
      Condition.of(".*", "quiet_machine", true, "load average 0.80 <= 3 before the run");
  private static final Condition BUSY =
      Condition.of(
          ".*", "quiet_machine", false, "machine busy: load average 7.10 > 3 before the run");
  private static final Condition WARMED = Condition.of(".*", "server_warmed", true, "lists");

  private static Validity.Sample sample(String figure, double value, String unit, Condition... at) {
    return new Validity.Sample(new ResultLine(figure, "ours", value, unit), List.of(at));
  }

  /** A converge run of {@code podSets}: time and heap grow as {@code timeMs} and {@code heapB}. */
  private static List<Validity.Sample> converge(
      int podSets, double timeMs, double heapB, Condition machine) {
    return List.of(
        sample("operator.converge_time." + podSets, timeMs, "ms", machine),
        sample("operator.converge_api_calls." + podSets, 5.0 * podSets, "calls", machine),
        sample("operator.converge_heap." + podSets, heapB, "B", machine),
        sample("operator.converge_cpu." + podSets, timeMs * 2, "ms", machine));
  }

  private static List<Validity.Sample> all(List<List<Validity.Sample>> parts) {
    List<Validity.Sample> out = new ArrayList<>();
    parts.forEach(out::addAll);
    return out;
  }

  @Test
  void linearTime_meetsTheGoal_andASuperlinearHeapMissesIt_withMarginalCosts() {
    // Time: 4 ms per PodSet plus 200 ms fixed (per PodSet 4.2, 4.067, 4.02: ratio 0.96);
    // heap: 1 MB fixed, then 8 KB per PodSet up to 3000 and 16 KB per PodSet beyond.
    List<Validity.Sample> samples =
        all(
            List.of(
                converge(1000, 4200, 1e6 + 8e6, QUIET),
                converge(3000, 12200, 1e6 + 24e6, QUIET),
                converge(10000, 40200, 1e6 + 24e6 + 112e6, QUIET)));

    List<String> lines = ScaleReport.lines(samples);

    assertThat(lines)
        .contains(
            "operator.converge_time per object, 10000 / 1000: 0.96 (goal ≤ 1.2: met)",
            "operator.converge_heap per object, 10000 / 1000: 1.52 (goal ≤ 1.2: MISSED)",
            "operator.converge_heap marginal per object, 1000-3000 and 3000-10000:"
                + " 8000, 16000 B/object, ratio 2.00",
            "operator.converge_api_calls per object, 10000 / 1000: 1.00");
    assertThat(lines).noneMatch(l -> l.startsWith("operator.converge_conflicts"));
    assertThat(ScaleReport.verdict(samples)).contains("every value measured");
  }

  @Test
  void busyMachine_makesTimeAndCpuInvalid_butNotHeapOrCalls() {
    List<Validity.Sample> samples =
        all(
            List.of(
                converge(1000, 4200, 9e6, QUIET),
                converge(3000, 12200, 25e6, BUSY),
                converge(10000, 40200, 137e6, QUIET)));

    String markdown = ScaleReport.markdown("quick", "", samples);
    List<String> lines = ScaleReport.lines(samples);

    assertThat(ScaleReport.verdict(samples)).contains("2 values INVALID");
    assertThat(ScaleReport.invalid(samples))
        .containsExactly(
            "operator.converge_time.3000: ours: machine busy: load average 7.10 > 3 before the run",
            "operator.converge_cpu.3000: ours: machine busy: load average 7.10 > 3 before the run");
    // The ends are valid, so the growth is; the marginal costs use the busy middle: invalid.
    assertThat(lines)
        .contains("operator.converge_time per object, 10000 / 1000: 0.96 (goal ≤ 1.2: met)")
        .anyMatch(
            l ->
                l.startsWith("operator.converge_time marginal per object")
                    && l.contains(": invalid (ours: machine busy: load average 7.10"));
    assertThat(markdown)
        .contains("| 3000 | invalid | invalid | 15000 | 5.00 |  | 23.84 | 8.14 | invalid | invalid")
        .contains("| 1000 | 4200 | 4.20 | 5000 | 5.00 |  | 8.58 | 8.79 | 8400 | 8.40 | 0.80 |");
  }

  @Test
  void informerSizes_sortByCount_andTheCacheGoalIsJudgedAtEachSize() {
    List<Validity.Sample> samples = new ArrayList<>();
    // Out of order on purpose: 100k sorts after 50k by count, not by text.
    String[] labels = {"10k", "100k", "50k"};
    double[] perPod = {1683, 1300, 1400};
    for (int i = 0; i < labels.length; i++) {
      samples.add(sample("informer.operator_sync_time." + labels[i], 1000, "ms", QUIET, WARMED));
      samples.add(sample("informer.operator_cache_per_pod." + labels[i], perPod[i], "B/object"));
    }
    ScaleReport.Table informer = ScaleReport.TABLES.get(1);

    assertThat(ScaleReport.sizes(informer, samples)).containsExactly("10k", "50k", "100k");
    assertThat(ScaleReport.cacheGoal(ScaleReport.sizes(informer, samples), samples))
        .containsExactly(
            "informer.operator_cache_per_pod.10k: 1683 B (goal ≤ 1536 B: MISSED)",
            "informer.operator_cache_per_pod.50k: 1400 B (goal ≤ 1536 B: met)",
            "informer.operator_cache_per_pod.100k: 1300 B (goal ≤ 1536 B: met)");
    // Already per pod: the growth compares the values themselves (1300 / 1683).
    assertThat(ScaleReport.lines(samples))
        .contains("informer.operator_cache_per_pod per object, 100k / 10k: 0.77");
  }

  @Test
  void syncTime_withoutAWarmedServer_isInvalid() {
    List<Validity.Sample> samples =
        List.of(
            sample("informer.operator_sync_time.10k", 900, "ms", QUIET),
            sample("informer.operator_sync_time.50k", 4000, "ms", QUIET, WARMED));

    assertThat(ScaleReport.invalid(samples))
        .containsExactly("informer.operator_sync_time.10k: server_warmed not checked");
    assertThat(ScaleReport.lines(samples))
        .containsExactly(
            "informer.operator_sync_time per object, 50k / 10k: invalid (server_warmed not"
                + " checked)");
  }
}
