package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SlowStartTest {

  @Test
  void batches_zero_isEmpty() {
    assertThat(SlowStart.batches(0)).isEmpty();
  }

  @Test
  void batches_powerOfTwoMinusOne_doublesExactly() {
    assertThat(SlowStart.batches(15)).containsExactly(1, 2, 4, 8);
  }

  @Test
  void batches_remainder_isTheLastBatch() {
    assertThat(SlowStart.batches(10)).containsExactly(1, 2, 4, 3);
  }

  @Test
  void batches_burstLimit_sumsToTotal() {
    assertThat(SlowStart.batches(500)).containsExactly(1, 2, 4, 8, 16, 32, 64, 128, 245);
    assertThat(SlowStart.batches(500).stream().mapToInt(Integer::intValue).sum()).isEqualTo(500);
  }

  @Test
  void batches_negative_isRejected() {
    assertThatThrownBy(() -> SlowStart.batches(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("total must not be negative, got -1");
  }
}
