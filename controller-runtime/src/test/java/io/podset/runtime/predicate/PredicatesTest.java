package io.podset.runtime.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podset.runtime.event.Event;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class PredicatesTest {

  private static Pod pod(
      long generation, String rv, Map<String, String> labels, Map<String, String> annotations) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .withGeneration(generation)
        .withResourceVersion(rv)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .build();
  }

  private static boolean update(Predicate<Event<? extends HasMetadata>> p, Pod before, Pod after) {
    return p.test(new Event.Updated<>(before, after));
  }

  @Test
  void generationChanged_passesSpecChangesOnly() {
    Pod base = pod(1, "10", Map.of(), Map.of());
    assertThat(update(Predicates.generationChanged(), base, pod(2, "11", Map.of(), Map.of())))
        .isTrue();
    assertThat(
            update(Predicates.generationChanged(), base, pod(1, "11", Map.of("a", "b"), Map.of())))
        .isFalse();
  }

  @Test
  void notStatusOnly_dropsTheEchoOfAStatusWrite_andPassesEverythingElse() {
    Predicate<Event<? extends HasMetadata>> p = Predicates.notStatusOnly();
    Pod base = pod(1, "10", Map.of(), Map.of());
    assertThat(update(p, base, pod(1, "11", Map.of(), Map.of()))).as("status only").isFalse();
    assertThat(update(p, base, pod(1, "10", Map.of(), Map.of()))).as("resync").isTrue();
    assertThat(update(p, base, pod(2, "11", Map.of(), Map.of()))).as("spec").isTrue();
    assertThat(update(p, base, pod(1, "11", Map.of("a", "b"), Map.of()))).as("labels").isTrue();
    assertThat(update(p, base, pod(1, "11", Map.of(), Map.of("a", "b"))))
        .as("annotations")
        .isTrue();
    Pod finalized = pod(1, "11", Map.of(), Map.of());
    finalized.getMetadata().setFinalizers(java.util.List.of("example.com/f"));
    assertThat(update(p, base, finalized)).as("finalizers").isTrue();
    Pod deleting = pod(1, "11", Map.of(), Map.of());
    deleting.getMetadata().setDeletionTimestamp("2026-12-01T10:00:00Z");
    assertThat(update(p, base, deleting)).as("deletion").isTrue();
    Pod noGeneration = pod(1, "11", Map.of(), Map.of());
    noGeneration.getMetadata().setGeneration(null);
    assertThat(
            update(
                p,
                noGeneration,
                noGeneration.toBuilder()
                    .editMetadata()
                    .withResourceVersion("12")
                    .endMetadata()
                    .build()))
        .as("a kind without generation")
        .isTrue();
  }

  @Test
  void everyUpdatePredicate_passesAnObjectReCreatedUnderTheSameName() {
    Pod old = pod(1, "10", Map.of("a", "b"), Map.of());
    old.getMetadata().setUid("uid-1");
    Pod recreated = pod(1, "42", Map.of("a", "b"), Map.of());
    recreated.getMetadata().setUid("uid-2");
    Pod sameObject = pod(1, "43", Map.of("a", "b"), Map.of());
    sameObject.getMetadata().setUid("uid-1");
    for (Predicate<Event<? extends HasMetadata>> p :
        java.util.List.of(
            Predicates.generationChanged(),
            Predicates.labelsChanged(),
            Predicates.annotationsChanged())) {
      assertThat(update(p, old, recreated)).as("re-created").isTrue();
      assertThat(update(p, old, sameObject)).as("same object, nothing changed").isFalse();
    }
    assertThat(Predicates.replaced(old, recreated)).isTrue();
    assertThat(Predicates.replaced(old, sameObject)).isFalse();
    assertThat(Predicates.replaced(pod(1, "1", null, null), recreated)).as("no uid").isFalse();
  }

  @Test
  void labelsChanged_treatsNullAndEmptyAlike() {
    Pod noLabels = pod(1, "10", null, null);
    assertThat(update(Predicates.labelsChanged(), noLabels, pod(1, "11", Map.of(), null)))
        .isFalse();
    assertThat(update(Predicates.labelsChanged(), noLabels, pod(1, "11", Map.of("a", "b"), null)))
        .isTrue();
  }

  @Test
  void annotationsChanged_detectsChanges() {
    Pod base = pod(1, "10", null, Map.of("a", "1"));
    assertThat(update(Predicates.annotationsChanged(), base, pod(1, "11", null, Map.of("a", "2"))))
        .isTrue();
    assertThat(update(Predicates.annotationsChanged(), base, pod(2, "11", null, Map.of("a", "1"))))
        .isFalse();
  }

  @Test
  void resourceVersionChanged_dropsResyncs() {
    Pod base = pod(1, "10", null, null);
    assertThat(update(Predicates.resourceVersionChanged(), base, pod(1, "10", null, null)))
        .isFalse();
    assertThat(update(Predicates.resourceVersionChanged(), base, pod(1, "11", null, null)))
        .isTrue();
  }

  @Test
  void stockPredicates_passAddsAndDeletes() {
    Pod pod = pod(1, "10", null, null);
    Predicate<Event<? extends HasMetadata>> p =
        Predicates.generationChanged().and(Predicates.resourceVersionChanged());
    assertThat(p.test(new Event.Added<>(pod))).isTrue();
    assertThat(p.test(new Event.Deleted<>(pod, false))).isTrue();
  }

  @Test
  void composition_withOrAndNegate() {
    Pod base = pod(1, "10", Map.of("a", "1"), null);
    Pod labelOnly = pod(1, "11", Map.of("a", "2"), null);
    assertThat(
            update(Predicates.generationChanged().or(Predicates.labelsChanged()), base, labelOnly))
        .isTrue();
    assertThat(update(Predicates.labelsChanged().negate(), base, labelOnly)).isFalse();
  }

  @Test
  void hasLabel_filtersEveryEventKind() {
    Predicate<Event<? extends HasMetadata>> p = Predicates.hasLabel("app", "web");
    assertThat(p.test(new Event.Added<>(pod(1, "1", Map.of("app", "web"), null)))).isTrue();
    assertThat(p.test(new Event.Added<>(pod(1, "1", Map.of("app", "db"), null)))).isFalse();
  }
}
