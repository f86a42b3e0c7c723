package io.podset.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodSetStatusTest {

  private static final Instant T0 = Instant.parse("2024-05-01T12:00:00.750Z");
  private static final Instant T1 = Instant.parse("2024-05-01T12:05:00Z");

  @Test
  void constructor_sortsPodNamesAndCopiesLists() {
    List<String> names = new ArrayList<>(List.of("p-c", "p-a", "p-b"));

    PodSetStatus status = PodSetStatus.builder().podNames(names).build();
    names.add("p-d");

    assertThat(status.podNames()).containsExactly("p-a", "p-b", "p-c");
    assertThatThrownBy(() -> status.podNames().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void constructor_nullListsBecomeEmpty() {
    PodSetStatus status = new PodSetStatus(1, 1, 1, 1, null, 3, "a=b", null);

    assertThat(status.podNames()).isEmpty();
    assertThat(status.conditions()).isEmpty();
    assertThat(status).isEqualTo(new PodSetStatus(1, 1, 1, 1, List.of(), 3, "a=b", List.of()));
  }

  @Test
  void sameContentInAnyOrder_isEqual() {
    PodSetStatus a = PodSetStatus.builder().replicas(2).podNames(List.of("x", "y")).build();
    PodSetStatus b = PodSetStatus.builder().replicas(2).podNames(List.of("y", "x")).build();

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(a.toBuilder().readyReplicas(1).build());
  }

  @Test
  void builder_setsEveryField() {
    PodSetCondition available = PodSetCondition.of("Available", "True", "Ready", "ok", T0);

    PodSetStatus status =
        PodSetStatus.builder()
            .replicas(3)
            .readyReplicas(2)
            .availableReplicas(1)
            .updatedReplicas(3)
            .podNames(List.of("b", "a", "c"))
            .observedGeneration(7)
            .selector("app.example.com/podset=web")
            .conditions(List.of(available))
            .build();

    assertThat(status)
        .isEqualTo(
            new PodSetStatus(
                3,
                2,
                1,
                3,
                List.of("a", "b", "c"),
                7,
                "app.example.com/podset=web",
                List.of(available)));
    assertThat(status.toBuilder().build()).isEqualTo(status);
    assertThat(PodSetStatus.empty()).isEqualTo(PodSetStatus.builder().build());
  }

  @Test
  void builder_negativeCounts_nameFieldAndValue() {
    PodSetStatus.Builder builder = PodSetStatus.builder();

    assertThatThrownBy(() -> builder.replicas(-1))
        .hasMessage("status.replicas must not be negative, got -1");
    assertThatThrownBy(() -> builder.readyReplicas(-2))
        .hasMessage("status.readyReplicas must not be negative, got -2");
    assertThatThrownBy(() -> builder.availableReplicas(-3))
        .hasMessage("status.availableReplicas must not be negative, got -3");
    assertThatThrownBy(() -> builder.updatedReplicas(-4))
        .hasMessage("status.updatedReplicas must not be negative, got -4");
    assertThatThrownBy(() -> builder.observedGeneration(-5))
        .hasMessage("status.observedGeneration must not be negative, got -5");
  }

  @Test
  void builder_duplicateConditionTypes_areRefused() {
    PodSetCondition a = PodSetCondition.of("Available", "True", null, null, T0);
    PodSetCondition b = PodSetCondition.of("Available", "False", null, null, T0);

    assertThatThrownBy(() -> PodSetStatus.builder().conditions(List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("status.conditions must have at most one condition per type");
  }

  @Test
  void withCondition_appendsNewType() {
    PodSetCondition progressing = PodSetCondition.of("Progressing", "True", "Scaling", "m", T0);

    PodSetStatus status = PodSetStatus.empty().withCondition(progressing);

    assertThat(status.conditions()).containsExactly(progressing);
    assertThat(status.condition("Progressing")).hasValue(progressing);
    assertThat(status.condition("Available")).isEmpty();
  }

  @Test
  void withCondition_sameStatus_keepsTransitionTimeAndUpdatesReasonAndMessage() {
    PodSetStatus status =
        PodSetStatus.empty()
            .withCondition(PodSetCondition.of("ReplicaFailure", "True", "FailedCreate", "a", T0));

    PodSetStatus updated =
        status.withCondition(
            PodSetCondition.of("ReplicaFailure", "True", "FailedCreate", "quota exceeded", T1));

    assertThat(updated.condition("ReplicaFailure").orElseThrow())
        .isEqualTo(
            new PodSetCondition(
                "ReplicaFailure",
                "True",
                "FailedCreate",
                "quota exceeded",
                "2024-05-01T12:00:00Z"));
  }

  @Test
  void withCondition_unchanged_yieldsEqualStatus() {
    PodSetStatus status =
        PodSetStatus.empty()
            .withCondition(PodSetCondition.of("Available", "True", "Ready", "3/3", T0));

    assertThat(status.withCondition(PodSetCondition.of("Available", "True", "Ready", "3/3", T1)))
        .isEqualTo(status);
  }

  @Test
  void withCondition_statusFlip_takesNewTransitionTimeInPlace() {
    PodSetStatus status =
        PodSetStatus.empty()
            .withCondition(PodSetCondition.of("Available", "False", "Starting", null, T0))
            .withCondition(PodSetCondition.of("Progressing", "True", "Scaling", null, T0));

    PodSetStatus updated =
        status.withCondition(PodSetCondition.of("Available", "True", "Ready", null, T1));

    assertThat(updated.conditions())
        .extracting(PodSetCondition::type, PodSetCondition::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Available", "True"),
            org.assertj.core.groups.Tuple.tuple("Progressing", "True"));
    assertThat(updated.condition("Available").orElseThrow().lastTransitionTime())
        .isEqualTo("2024-05-01T12:05:00Z");
  }

  @Test
  void withoutCondition_removesOnlyThatType() {
    PodSetStatus status =
        PodSetStatus.empty()
            .withCondition(PodSetCondition.of("Available", "True", null, null, T0))
            .withCondition(PodSetCondition.of("ReplicaFailure", "True", null, null, T0));

    PodSetStatus cleared = status.withoutCondition("ReplicaFailure");

    assertThat(cleared.conditions()).extracting(PodSetCondition::type).containsExactly("Available");
    assertThat(cleared.withoutCondition("ReplicaFailure")).isSameAs(cleared);
  }
}
