package io.podset.runtime.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class OwnerReferencesTest {

  private static GenericKubernetesResource podSet(String name, String uid) {
    GenericKubernetesResource owner = new GenericKubernetesResource();
    owner.setApiVersion("app.example.com/v1alpha1");
    owner.setKind("PodSet");
    owner.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withNamespace("ns")
            .withName(name)
            .withUid(uid)
            .build());
    return owner;
  }

  private static Pod pod() {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("p")
        .endMetadata()
        .build();
  }

  @Test
  void setControllerReference_setsControllerAndBlockOwnerDeletion() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);

    OwnerReference ref = pod.getMetadata().getOwnerReferences().get(0);
    assertThat(ref.getApiVersion()).isEqualTo("app.example.com/v1alpha1");
    assertThat(ref.getKind()).isEqualTo("PodSet");
    assertThat(ref.getName()).isEqualTo("a");
    assertThat(ref.getUid()).isEqualTo("uid-a");
    assertThat(ref.getController()).isTrue();
    assertThat(ref.getBlockOwnerDeletion()).isTrue();
    assertThat(OwnerReferences.isControlledBy(pod, podSet("a", "uid-a"))).isTrue();
  }

  @Test
  void setControllerReference_twiceForSameOwner_keepsOneReference() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);

    assertThat(pod.getMetadata().getOwnerReferences()).hasSize(1);
  }

  @Test
  void setControllerReference_whenAnotherControllerOwns_failsNamingBoth() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);

    assertThatThrownBy(() -> OwnerReferences.setControllerReference(podSet("b", "uid-b"), pod))
        .isInstanceOf(OwnershipException.class)
        .hasMessageContaining("already controlled by PodSet a")
        .hasMessageContaining("PodSet b");
    assertThat(pod.getMetadata().getOwnerReferences()).hasSize(1);
  }

  @Test
  void setControllerReference_clusterScopedDependentOfNamespacedOwner_fails() {
    Namespace namespace =
        new NamespaceBuilder().withNewMetadata().withName("n").endMetadata().build();

    assertThatThrownBy(() -> OwnerReferences.setControllerReference(podSet("a", "u"), namespace))
        .isInstanceOf(OwnershipException.class)
        .hasMessageContaining("cluster-scoped Namespace n");
  }

  @Test
  void setControllerReference_crossNamespace_fails() {
    ConfigMap map =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withNamespace("other")
            .withName("c")
            .endMetadata()
            .build();

    assertThatThrownBy(() -> OwnerReferences.setControllerReference(podSet("a", "u"), map))
        .isInstanceOf(OwnershipException.class)
        .hasMessageContaining("'other'")
        .hasMessageContaining("'ns'");
  }

  @Test
  void setControllerReference_ownerWithoutUid_failsNamingTheField() {
    assertThatThrownBy(() -> OwnerReferences.setControllerReference(podSet("a", null), pod()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("owner.metadata.uid");
  }

  @Test
  void setOwnerReference_addsNonControllerAndKeepsExisting() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);
    OwnerReferences.setOwnerReference(podSet("b", "uid-b"), pod);
    OwnerReferences.setOwnerReference(podSet("a", "uid-a"), pod);

    assertThat(pod.getMetadata().getOwnerReferences()).hasSize(2);
    assertThat(OwnerReferences.getControllerOf(pod))
        .get()
        .extracting(OwnerReference::getName)
        .isEqualTo("a");
  }

  @Test
  void removeOwnerReference_removesOnlyThatOwner() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);
    OwnerReferences.setOwnerReference(podSet("b", "uid-b"), pod);

    assertThat(OwnerReferences.removeOwnerReference(podSet("a", "uid-a"), pod)).isTrue();
    assertThat(OwnerReferences.removeOwnerReference(podSet("a", "uid-a"), pod)).isFalse();
    assertThat(pod.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getName)
        .containsExactly("b");
    assertThat(OwnerReferences.getControllerOf(pod)).isEmpty();
  }

  @Test
  void referencesMatchAcrossVersionsOfTheSameGroup() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);
    GenericKubernetesResource newerVersion = podSet("a", "uid-a");
    newerVersion.setApiVersion("app.example.com/v1");

    OwnerReferences.setControllerReference(newerVersion, pod);

    assertThat(pod.getMetadata().getOwnerReferences())
        .singleElement()
        .extracting(OwnerReference::getApiVersion)
        .isEqualTo("app.example.com/v1");
  }

  @Test
  void isControlledBy_comparesUid() {
    Pod pod = pod();
    OwnerReferences.setControllerReference(podSet("a", "uid-a"), pod);

    assertThat(OwnerReferences.isControlledBy(pod, podSet("a", "uid-recreated"))).isFalse();
  }

  @Test
  void groupOf_coreAndNamedGroups() {
    assertThat(OwnerReferences.groupOf("v1")).isEmpty();
    assertThat(OwnerReferences.groupOf("apps/v1")).isEqualTo("apps");
    assertThat(OwnerReferences.groupOf(null)).isEmpty();
  }
}
