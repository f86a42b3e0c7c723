package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {

  @Test
  void of_takesMedians_andPairsOursWithEachPeer() {
    List<ResultLine> samples =
        List.of(
            new ResultLine("workqueue.cycle", "ours", 100, "ns/op"),
            new ResultLine("workqueue.cycle", "ours", 90, "ns/op"),
            new ResultLine("workqueue.cycle", "ours", 500, "ns/op"),
            new ResultLine("workqueue.cycle", "client-java", 200, "ns/op"),
            new ResultLine("workqueue.cycle", "client-java", 220, "ns/op"),
            new ResultLine("workqueue.cycle", "lbq", 50, "ns/op"));

    List<Comparison> comparisons = Comparison.of(samples, Goal.ISSUE_10);

    assertThat(comparisons).extracting(Comparison::peer).containsExactly("client-java", "lbq");
    Comparison clientJava = comparisons.get(0);
    assertThat(clientJava.ours()).isEqualTo(100);
    assertThat(clientJava.theirs()).isEqualTo(210);
    assertThat(clientJava.ratio()).isEqualTo(2.1);
    assertThat(clientJava.met()).contains(true);
    assertThat(clientJava.line())
        .isEqualTo("workqueue.cycle[client-java]: ours=100.0 peer=210.0 ratio=2.10 unit=ns/op");
    assertThat(comparisons.get(1).ratio()).isEqualTo(0.5);
    assertThat(comparisons.get(1).met()).contains(true);
  }

  @Test
  void ratio_bothZero_isOne_andOursZeroIsInfinitelyBetter() {
    List<Comparison> comparisons =
        Comparison.of(
            List.of(
                new ResultLine("operator.converge_conflicts.1000", "ours", 0, "conflicts"),
                new ResultLine("operator.converge_conflicts.1000", "josdk", 0, "conflicts"),
                new ResultLine("operator.converge_conflicts.1000", "seed-loop", 12, "conflicts")),
            Goal.ISSUE_10);

    assertThat(comparisons.get(0).ratio()).isEqualTo(1.0);
    assertThat(comparisons.get(1).ratio()).isInfinite();
  }

  @Test
  void goal_convergeTime_withoutLatency_needs2xBoth_with5ms_1xJosdk_and10xSeedLoop() {
    List<Comparison> comparisons =
        Comparison.of(
            List.of(
                new ResultLine("operator.converge_time.1000", "ours", 1000, "ms"),
                new ResultLine("operator.converge_time.1000", "josdk", 2500, "ms"),
                new ResultLine("operator.converge_time.1000", "seed-loop", 9000, "ms"),
                new ResultLine("operator.converge_time.1000@5ms", "ours", 1000, "ms"),
                new ResultLine("operator.converge_time.1000@5ms", "josdk", 800, "ms"),
                new ResultLine("operator.converge_time.1000@5ms", "seed-loop", 9000, "ms")),
            Goal.ISSUE_10);

    assertThat(comparisons)
        .extracting(Comparison::name)
        .containsExactly(
            "operator.converge_time.1000[josdk]",
            "operator.converge_time.1000[seed-loop]",
            "operator.converge_time.1000@5ms[josdk]",
            "operator.converge_time.1000@5ms[seed-loop]");
    assertThat(comparisons)
        .extracting(c -> c.goal().orElseThrow().minRatio())
        .containsExactly(2.0, 2.0, 1.0, 10.0);
    assertThat(comparisons)
        .extracting(c -> c.met().orElseThrow())
        .containsExactly(true, true, false, false);
  }

  @Test
  void ratio_ofRates_isOursOverTheirs() {
    List<Comparison> comparisons =
        Comparison.of(
            List.of(
                new ResultLine("workqueue.dedup", "ours", 300, "gets/s"),
                new ResultLine("workqueue.dedup", "client-go", 400, "gets/s")),
            Goal.ISSUE_10);

    assertThat(comparisons.get(0).ratio()).isEqualTo(0.75);
    assertThat(comparisons.get(0).met()).contains(false);
  }

  @Test
  void of_allocationFigure_hasNoGoal_andFigureWithoutOursIsLeftOut() {
    List<Comparison> comparisons =
        Comparison.of(
            List.of(
                new ResultLine("workqueue.cycle.alloc", "ours", 96, "B/op"),
                new ResultLine("workqueue.cycle.alloc", "client-go", 16, "B/op"),
                new ResultLine("workqueue.only_peer", "client-go", 1, "ns/op")),
            Goal.ISSUE_10);

    assertThat(comparisons).hasSize(1);
    assertThat(comparisons.get(0).goal()).isEmpty();
    assertThat(comparisons.get(0).met()).isEmpty();
  }

  @Test
  void of_unitsDiffer_isRejected() {
    assertThatThrownBy(
            () ->
                Comparison.of(
                    List.of(
                        new ResultLine("f", "ours", 1, "ns/op"),
                        new ResultLine("f", "peer", 1, "ms")),
                    Goal.ISSUE_10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ns/op")
        .hasMessageContaining("ms");
  }

  @Test
  void goal_fabric8Backends_eachNeedTheRatio_andBareQueueDedupHasNone() {
    assertThat(Goal.find(Goal.ISSUE_10, "informer.sync_time.10k", "fabric8-okhttp"))
        .map(Goal::minRatio)
        .contains(2.0);
    assertThat(Goal.find(Goal.ISSUE_10, "apiserver.get", "fabric8-mock"))
        .map(Goal::minRatio)
        .contains(3.0);
    assertThat(Goal.find(Goal.ISSUE_10, "workqueue.dedup", "lbq")).isEmpty();
    assertThat(Goal.find(Goal.ISSUE_10, "workqueue.unique", "lbq"))
        .map(Goal::minRatio)
        .contains(0.5);
  }
}
