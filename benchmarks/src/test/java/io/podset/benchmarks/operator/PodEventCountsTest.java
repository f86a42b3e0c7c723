package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class PodEventCountsTest {

  private static Pod pod(String resourceVersion, String podIp, String ready) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .withNamespace("ns")
        .withResourceVersion(resourceVersion)
        .endMetadata()
        .withNewSpec()
        .withNodeName("node-1")
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP(podIp)
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready)
        .endCondition()
        .endStatus()
        .build();
  }

  @Test
  void sameForOperator_whenOnlyDroppedFieldsAndTheVersionChanged() {
    assertThat(
            PodEventCounts.sameForOperator(pod("1", null, "False"), pod("2", "10.0.0.1", "False")))
        .isTrue();
  }

  @Test
  void notSameForOperator_whenAKeptFieldChanged() {
    assertThat(PodEventCounts.sameForOperator(pod("1", null, "False"), pod("2", null, "True")))
        .isFalse();
  }

  @Test
  void counts_addUp_andSubtract() {
    PodEventCounts counts = new PodEventCounts();
    PodEventCounts.Counts start = counts.now();
    counts.added();
    counts.updated(pod("1", null, "False"), pod("2", "10.0.0.1", "False"));
    counts.updated(pod("2", null, "False"), pod("3", null, "True"));
    counts.deleted();

    assertThat(counts.now().since(start)).isEqualTo(new PodEventCounts.Counts(1, 2, 1, 1));
  }
}
