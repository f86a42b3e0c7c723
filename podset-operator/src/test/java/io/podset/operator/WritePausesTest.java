package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WritePausesTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final WritePauses<String> pauses =
      new WritePauses<>(Duration.ofSeconds(1), Duration.ofSeconds(10));

  @Test
  void failed_waitsFirst_doublingWhileTheyFail_upToMax() {
    assertThat(pauses.remaining("ns/a", T0)).isZero();
    assertThat(pauses.failed("ns/a", null, T0)).isEqualTo(Duration.ofSeconds(1));
    assertThat(pauses.remaining("ns/a", T0.plusMillis(400))).isEqualTo(Duration.ofMillis(600));
    assertThat(pauses.remaining("ns/a", T0.plusSeconds(1))).isZero();

    assertThat(pauses.failed("ns/a", null, T0.plusSeconds(1))).isEqualTo(Duration.ofSeconds(2));
    assertThat(pauses.failed("ns/a", null, T0.plusSeconds(3))).isEqualTo(Duration.ofSeconds(4));
    assertThat(pauses.failed("ns/a", null, T0.plusSeconds(7))).isEqualTo(Duration.ofSeconds(8));
    assertThat(pauses.failed("ns/a", null, T0.plusSeconds(15))).isEqualTo(Duration.ofSeconds(10));
    // Other PodSets are not held back.
    assertThat(pauses.remaining("ns/b", T0.plusSeconds(15))).isZero();
  }

  @Test
  void failed_neverWaitsLessThanTheServersRetryAfter() {
    assertThat(pauses.failed("ns/a", Duration.ofSeconds(3), T0)).isEqualTo(Duration.ofSeconds(3));
    // A shorter Retry-After later does not cut a wait short.
    assertThat(pauses.failed("ns/a", Duration.ofSeconds(1), T0.plusSeconds(1)))
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(pauses.failed("ns/b", Duration.ofSeconds(60), T0))
        .as("beyond max: the server's word")
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void forget_afterASuccess_theNextFailureStartsOver() {
    pauses.failed("ns/a", null, T0);
    pauses.failed("ns/a", null, T0.plusSeconds(1));
    pauses.forget("ns/a");
    assertThat(pauses.remaining("ns/a", T0.plusSeconds(1))).isZero();
    assertThat(pauses.failed("ns/a", null, T0.plusSeconds(2))).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void create_refusesAMaxBelowFirst() {
    assertThatThrownBy(() -> new WritePauses<String>(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("first PT2S, max PT1S");
  }
}
