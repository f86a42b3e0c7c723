package io.podset.runtime.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.250Z");
  private static final Instant T1 = Instant.parse("2026-12-01T11:00:00Z");

  @Test
  void set_sameStatus_keepsTransitionTime_andUpdatesTheRest() {
    List<Condition> first =
        Conditions.set(null, Conditions.of("Ready", false, "Progressing", "starting", 1L, T0));
    List<Condition> second =
        Conditions.set(first, Conditions.of("Ready", false, "Progressing", "2 of 3", 2L, T1));
    assertThat(second).hasSize(1);
    assertThat(second.get(0).getLastTransitionTime()).isEqualTo("2026-12-01T10:00:00Z");
    assertThat(second.get(0).getMessage()).isEqualTo("2 of 3");
    assertThat(second.get(0).getObservedGeneration()).isEqualTo(2L);
  }

  @Test
  void set_statusFlips_movesTransitionTime() {
    List<Condition> first =
        Conditions.set(null, Conditions.of("Ready", false, "Progressing", "", 1L, T0));
    List<Condition> second =
        Conditions.set(first, Conditions.of("Ready", true, "Available", "", 1L, T1));
    assertThat(second.get(0).getLastTransitionTime()).isEqualTo("2026-12-01T11:00:00Z");
    assertThat(Conditions.isTrue(second, "Ready")).isTrue();
  }

  @Test
  void set_sameConditionTwice_isEqual_soNoStatusWriteFollows() {
    Condition ready = Conditions.of("Ready", true, "Available", "ok", 3L, T0);
    List<Condition> once = Conditions.set(null, ready);
    List<Condition> again =
        Conditions.set(once, Conditions.of("Ready", true, "Available", "ok", 3L, T1));
    assertThat(again).isEqualTo(once);
  }

  @Test
  void set_keepsOtherTypes_andLeavesTheInputAlone() {
    List<Condition> start =
        Conditions.set(null, Conditions.of("Degraded", false, "AsExpected", "", 1L, T0));
    List<Condition> next = Conditions.set(start, Conditions.of("Ready", true, "Ok", "", 1L, T0));
    assertThat(next).extracting(Condition::getType).containsExactly("Degraded", "Ready");
    assertThat(start).hasSize(1);
    assertThat(Conditions.remove(next, "Degraded"))
        .extracting(Condition::getType)
        .containsExactly("Ready");
  }

  @Test
  void of_rejectsReasonsTheApiRejects_namingTheValue() {
    assertThatThrownBy(() -> Conditions.of("Ready", true, "not ok", "", 1L, T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'not ok'");
    assertThatThrownBy(() -> Conditions.of("bad type!", true, "Ok", "", 1L, T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'bad type!'");
  }
}
