package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VersionBarrierTest {

  private final ManualClock clock = new ManualClock();
  private final VersionBarrier<String> barrier = new VersionBarrier<>(clock, Duration.ofMinutes(1));

  @Test
  void passed_noWrite_true() {
    assertThat(barrier.passed("k", null)).isTrue();
  }

  @Test
  void passed_cacheOlderThanTheWrite_falseUntilCaughtUp() {
    barrier.wrote("k", "100");

    assertThat(barrier.passed("k", "99")).isFalse();
    assertThat(barrier.passed("k", null)).isFalse();
    assertThat(barrier.passed("k", "100")).isTrue();
    assertThat(barrier.passed("k", "1")).isTrue();
  }

  @Test
  void wrote_keepsTheNewestVersion() {
    barrier.wrote("k", "120");
    barrier.wrote("k", "110");

    assertThat(barrier.passed("k", "115")).isFalse();
    assertThat(barrier.passed("k", "120")).isTrue();
  }

  @Test
  void wrote_nonNumericVersion_ignored() {
    barrier.wrote("k", "abc");

    assertThat(barrier.passed("k", "1")).isTrue();
  }

  @Test
  void passed_afterTheTimeout_trueAndCounted() {
    barrier.wrote("k", "100");
    clock.advance(Duration.ofMinutes(1));

    assertThat(barrier.passed("k", "5")).isTrue();
    assertThat(barrier.timeouts()).isEqualTo(1);
  }

  @Test
  void forget_dropsTheBarrier() {
    barrier.wrote("k", "100");
    barrier.forget("k");

    assertThat(barrier.passed("k", "1")).isTrue();
  }

  @Test
  void create_nonPositiveTimeout_rejected() {
    assertThatThrownBy(() -> new VersionBarrier<String>(clock, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout must be positive, got PT0S");
  }
}
