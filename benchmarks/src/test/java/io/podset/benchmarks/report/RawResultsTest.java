package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RawResultsTest {

  private static final String JMH =
      """
      [ {
        "benchmark" : "io.podset.benchmarks.workqueue.DelayedAddBenchmark.addRateLimited",
        "mode" : "avgt",
        "params" : { "contender" : "client-java" },
        "primaryMetric" : {
          "score" : 2.0, "scoreUnit" : "ns/op",
          "rawData" : [ [ 1.0, 2.0 ], [ 3.0 ] ]
        },
        "secondaryMetrics" : {
          "gc.alloc.rate" : { "score" : 9.0, "scoreUnit" : "MB/sec", "rawData" : [ [ 9.0 ] ] },
          "gc.alloc.rate.norm" : { "score" : 60.0, "scoreUnit" : "B/op", "rawData" : [ [ 60.0 ] ] }
        }
      } ]
      """;

  @Test
  void jmhJson_givesOneSamplePerIteration_andTheAllocationFigure() {
    List<ResultLine> samples = RawResults.jmhJson(JMH);

    assertThat(samples)
        .containsExactly(
            new ResultLine("workqueue.add_rate_limited", "client-java", 1.0, "ns/op"),
            new ResultLine("workqueue.add_rate_limited", "client-java", 2.0, "ns/op"),
            new ResultLine("workqueue.add_rate_limited", "client-java", 3.0, "ns/op"),
            new ResultLine("workqueue.add_rate_limited.alloc", "client-java", 60.0, "B/op"));
  }

  @Test
  void jmhJson_withoutContender_isRejected() {
    assertThatThrownBy(() -> RawResults.jmhJson(JMH.replace("contender", "kind")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("addRateLimited");
  }

  @Test
  void goBench_mapsTimeAndBytes_orOnlyTheReportedRate() {
    List<String> output =
        List.of(
            "goos: linux",
            "pkg: podset.io/benchmarks/workqueue",
            "BenchmarkAddAfter-2    1000000   225.4 ns/op   75 B/op   1 allocs/op",
            "BenchmarkDedup-2   1422336   211.3 ns/op   863398 gets/s   11 B/op   0 allocs/op",
            "PASS");

    assertThat(RawResults.goBench(output))
        .containsExactly(
            new ResultLine("workqueue.add_after", "client-go", 225.4, "ns/op"),
            new ResultLine("workqueue.add_after.alloc", "client-go", 75, "B/op"),
            new ResultLine("workqueue.dedup", "client-go", 863398, "gets/s"));
  }

  @Test
  void goBench_withoutPackageLine_isRejected() {
    assertThatThrownBy(() -> RawResults.goBench(List.of("BenchmarkCycle-2  10  5 ns/op")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pkg:");
  }

  @Test
  void snakeCase_splitsCamelCase() {
    assertThat(RawResults.snakeCase("addRateLimited")).isEqualTo("add_rate_limited");
    assertThat(RawResults.snakeCase("AddAfter")).isEqualTo("add_after");
    assertThat(RawResults.snakeCase("cycle")).isEqualTo("cycle");
  }
}
