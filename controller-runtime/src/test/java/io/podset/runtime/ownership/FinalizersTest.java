package io.podset.runtime.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

class FinalizersTest {

  @Test
  void add_isIdempotent() {
    Pod pod = new Pod();
    assertThat(Finalizers.add(pod, "example.com/cleanup")).isTrue();
    assertThat(Finalizers.add(pod, "example.com/cleanup")).isFalse();
    assertThat(pod.getMetadata().getFinalizers()).containsExactly("example.com/cleanup");
    assertThat(Finalizers.has(pod, "example.com/cleanup")).isTrue();
  }

  @Test
  void remove_removesAndReportsChange() {
    Pod pod = new Pod();
    Finalizers.add(pod, "a.io/x");
    Finalizers.add(pod, "b.io/y");

    assertThat(Finalizers.remove(pod, "a.io/x")).isTrue();
    assertThat(Finalizers.remove(pod, "a.io/x")).isFalse();
    assertThat(pod.getMetadata().getFinalizers()).containsExactly("b.io/y");
  }

  @Test
  void add_rejectsInvalidNameWithTheValue() {
    assertThatThrownBy(() -> Finalizers.add(new Pod(), "not a finalizer"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'not a finalizer'");
  }

  @Test
  void isBeingDeleted_followsDeletionTimestamp() {
    Pod pod = new Pod();
    assertThat(Finalizers.isBeingDeleted(pod)).isFalse();
    pod.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
    assertThat(Finalizers.isBeingDeleted(pod)).isTrue();
  }
}
