package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PodSetOptionsTest {

  @Test
  void defaults_asDocumented() {
    PodSetOptions options = PodSetOptions.defaults();

    assertThat(options.workers()).isEqualTo(8);
    assertThat(options.burst()).isEqualTo(500);
    assertThat(options.writeParallelism()).isEqualTo(16);
    assertThat(options.expectationsTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(options.statusDelay()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void with_outOfRange_rejectedNamingTheField() {
    PodSetOptions options = PodSetOptions.defaults();

    assertThatThrownBy(() -> options.withWorkers(0))
        .hasMessage("workers must be between 1 and 1024, got 0");
    assertThatThrownBy(() -> options.withBurst(0)).hasMessage("burst must be at least 1, got 0");
    assertThatThrownBy(() -> options.withWriteParallelism(300))
        .hasMessage("writeParallelism must be between 1 and 256, got 300");
    assertThatThrownBy(() -> options.withExpectationsTimeout(Duration.ZERO))
        .hasMessage("expectationsTimeout must be positive, got PT0S");
    assertThatThrownBy(() -> options.withStatusDelay(Duration.ofMillis(-1)))
        .hasMessage("statusDelay must not be negative, got PT-0.001S");
    assertThatThrownBy(() -> options.withStatusDelay(Duration.ofHours(2)))
        .hasMessage("statusDelay must be at most PT1H, got PT2H");
  }

  @Test
  void with_changesOneField() {
    assertThat(PodSetOptions.defaults().withWorkers(3).workers()).isEqualTo(3);
    assertThat(PodSetOptions.defaults().withBurst(10).burst()).isEqualTo(10);
    assertThat(PodSetOptions.defaults().withStatusDelay(Duration.ZERO).statusDelay()).isZero();
  }
}
