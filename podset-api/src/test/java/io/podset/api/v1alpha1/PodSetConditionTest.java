package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class PodSetConditionTest {

  @Test
  void of_truncatesTimeToWholeSecondsInUtc() {
    PodSetCondition condition =
        PodSetCondition.of(
            PodSetCondition.PROGRESSING,
            PodSetCondition.TRUE,
            "Scaling",
            "creating 2 pods",
            Instant.parse("2024-05-01T12:00:00.999Z"));

    assertThat(condition)
        .isEqualTo(
            new PodSetCondition(
                "Progressing", "True", "Scaling", "creating 2 pods", "2024-05-01T12:00:00Z"));
    assertThat(condition.isTrue()).isTrue();
  }

  @Test
  void of_badStatus_namesTheValue() {
    assertThatThrownBy(() -> PodSetCondition.of("Available", "true", null, null, Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("condition status must be True, False or Unknown, got 'true'");
  }

  @Test
  void of_blankType_isRefused() {
    assertThatThrownBy(() -> PodSetCondition.of(" ", "True", null, null, Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("condition type must not be blank, got ' '");
  }

  @Test
  void of_nullArguments_nameTheArgument() {
    assertThatThrownBy(() -> PodSetCondition.of(null, "True", null, null, Instant.EPOCH))
        .hasMessage("type");
    assertThatThrownBy(() -> PodSetCondition.of("Available", "True", null, null, null))
        .hasMessage("now");
  }

  @Test
  void isTrue_onlyForTrue() {
    assertThat(new PodSetCondition("Available", "False", null, null, null).isTrue()).isFalse();
    assertThat(new PodSetCondition("Available", "Unknown", null, null, null).isTrue()).isFalse();
  }

  @Test
  void formatTime_isRfc3339Seconds() {
    assertThat(PodSetCondition.formatTime(Instant.parse("2024-01-02T03:04:05.123456Z")))
        .isEqualTo("2024-01-02T03:04:05Z");
  }
}
