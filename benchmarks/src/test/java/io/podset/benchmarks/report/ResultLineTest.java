package io.podset.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResultLineTest {

  @Test
  void format_thenParse_roundTrips() {
    ResultLine line = new ResultLine("workqueue.dedup", "client-java", 389061.5, "gets/s");

    assertThat(ResultLine.parse(line.format())).contains(line);
  }

  @Test
  void parse_otherOutput_isNotAResult() {
    assertThat(ResultLine.parse("12:00:01 WARN something happened")).isEmpty();
  }

  @Test
  void parse_missingUnit_namesTheLine() {
    assertThatThrownBy(() -> ResultLine.parse("RESULT workqueue.dedup ours 12.5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RESULT workqueue.dedup ours 12.5");
  }

  @Test
  void new_contenderWithSpace_isRejected() {
    assertThatThrownBy(() -> new ResultLine("f", "client java", 1, "ns/op"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("contender");
  }

  @Test
  void higherIsBetter_onlyForRates() {
    assertThat(new ResultLine("f", "ours", 1, "ops/s").higherIsBetter()).isTrue();
    assertThat(new ResultLine("f", "ours", 1, "ns/op").higherIsBetter()).isFalse();
    assertThat(new ResultLine("f", "ours", 1, "B/op").higherIsBetter()).isFalse();
  }
}
