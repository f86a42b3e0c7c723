package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podset.runtime.informer.elsewhere.Gadgets;
import io.podset.runtime.time.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ProjectionsTest {

  private static final UnaryOperator<io.fabric8.kubernetes.api.model.HasMetadata> SLIM =
      Projections.keep(
          Pod.class,
          "metadata.labels",
          "metadata.ownerReferences",
          "spec.nodeName",
          "spec.containers.name",
          "spec.containers.image",
          "status.phase",
          "status.conditions");

  /** A pod as a Deployment's would be, with much the projection drops. */
  private static Pod fullPod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("web")
        // Fresh string instances, as a JSON decoder makes them.
        .withName(new String(name))
        .withUid("uid-" + name)
        .withResourceVersion("7")
        .withGeneration(1L)
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .addToLabels(new String("app"), new String("web"))
        .addToAnnotations("note", "dropped")
        .addToFinalizers("example.com/cleanup")
        .addNewOwnerReference()
        .withApiVersion("apps/v1")
        .withKind("ReplicaSet")
        .withName(new String("web-1"))
        .withUid("rs-uid")
        .withController(true)
        .endOwnerReference()
        .withManagedFields(
            new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Update").build())
        .endMetadata()
        .withNewSpec()
        .withNodeName("node-1")
        .addToContainers(
            new ContainerBuilder()
                .withName("app")
                .withImage("nginx:1")
                .withArgs("--port", "80")
                .addNewEnv()
                .withName("A")
                .withValue("1")
                .endEnv()
                .withNewResources()
                .addToLimits("cpu", new Quantity("500m"))
                .endResources()
                .build(),
            new ContainerBuilder().withName("sidecar").withImage("envoy:2").build())
        .addNewVolume()
        .withName("data")
        .withNewEmptyDir()
        .endEmptyDir()
        .endVolume()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP("10.0.0.1")
        .addToConditions(
            new PodConditionBuilder()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime("2026-01-01T00:00:05Z")
                .build())
        .addNewContainerStatus()
        .withName("app")
        .withRestartCount(3)
        .endContainerStatus()
        .endStatus()
        .build();
  }

  @Test
  void keep_copiesTheNamedFieldsOnly() {
    Pod full = fullPod("a");
    full.getStatus().getConditions().get(0).setAdditionalProperty("future", "x");

    Pod slim = (Pod) SLIM.apply(full);

    assertThat(slim.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
    assertThat(slim.getMetadata().getOwnerReferences())
        .containsExactlyElementsOf(full.getMetadata().getOwnerReferences());
    assertThat(slim.getSpec().getNodeName()).isEqualTo("node-1");
    assertThat(slim.getSpec().getContainers())
        .extracting(c -> c.getName() + "=" + c.getImage())
        .containsExactly("app=nginx:1", "sidecar=envoy:2");
    assertThat(slim.getStatus().getPhase()).isEqualTo("Running");
    // A path ending at a list keeps its elements whole, unknown fields included.
    assertThat(slim.getStatus().getConditions()).isEqualTo(full.getStatus().getConditions());
    assertThat(slim.getStatus().getConditions().get(0).getAdditionalProperties())
        .containsEntry("future", "x");

    assertThat(slim.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(slim.getMetadata().getFinalizers()).isEmpty();
    assertThat(slim.getMetadata().getManagedFields()).isEmpty();
    assertThat(slim.getMetadata().getCreationTimestamp()).isNull();
    assertThat(slim.getSpec().getContainers().get(0).getArgs()).isEmpty();
    assertThat(slim.getSpec().getContainers().get(0).getEnv()).isEmpty();
    assertThat(slim.getSpec().getContainers().get(0).getResources()).isNull();
    assertThat(slim.getSpec().getVolumes()).isEmpty();
    assertThat(slim.getStatus().getPodIP()).isNull();
    assertThat(slim.getStatus().getContainerStatuses()).isEmpty();
  }

  @Test
  void keep_alwaysKeepsIdentityAndVersions_andLeavesTheSourceAlone() {
    Pod full = fullPod("a");
    full.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
    String before = Serialization.asJson(full);

    Pod slim = (Pod) Projections.keep(Pod.class).apply(full);

    assertThat(slim).isNotSameAs(full);
    assertThat(slim.getApiVersion()).isEqualTo("v1");
    assertThat(slim.getKind()).isEqualTo("Pod");
    assertThat(slim.getMetadata().getNamespace()).isEqualTo("web");
    assertThat(slim.getMetadata().getName()).isEqualTo("a");
    assertThat(slim.getMetadata().getUid()).isEqualTo("uid-a");
    assertThat(slim.getMetadata().getResourceVersion()).isEqualTo("7");
    assertThat(slim.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(slim.getMetadata().getDeletionTimestamp()).isEqualTo("2026-01-02T00:00:00Z");
    assertThat(slim.getSpec()).isNull();
    assertThat(slim.getStatus()).isNull();
    assertThat(Serialization.asJson(full)).isEqualTo(before);
  }

  @Test
  void keep_makesListsAndMapsImmutable() {
    Pod slim = (Pod) SLIM.apply(fullPod("a"));

    assertThatThrownBy(() -> slim.getMetadata().getLabels().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> slim.getSpec().getContainers().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> slim.getSpec().getVolumes().add(null))
        .isInstanceOf(UnsupportedOperationException.class);
    // A copy is free to change, as a copy of any cached object.
    Pod copy = new PodBuilder(slim).editMetadata().addToLabels("x", "y").endMetadata().build();
    assertThat(copy.getMetadata().getLabels()).containsEntry("x", "y");
  }

  @Test
  void keep_sharesRepeatedStrings_butNotNamesUidsOrVersions() {
    Pod a = (Pod) SLIM.apply(fullPod("a"));
    Pod b = (Pod) SLIM.apply(fullPod("a"));

    assertThat(a.getMetadata().getLabels().get("app"))
        .isSameAs(b.getMetadata().getLabels().get("app"));
    assertThat(a.getMetadata().getOwnerReferences().get(0).getName())
        .isSameAs(b.getMetadata().getOwnerReferences().get(0).getName());
    assertThat(a.getMetadata().getName()).isNotSameAs(b.getMetadata().getName());
  }

  @Test
  void keep_keepsValuesWithTheirOwnJsonFormWhole() {
    Pod full = fullPod("a");
    Quantity cpu = full.getSpec().getContainers().get(0).getResources().getLimits().get("cpu");

    Pod slim = (Pod) Projections.keep(Pod.class, "spec.containers.resources").apply(full);

    assertThat(slim.getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
        .isSameAs(cpu);
  }

  @Test
  void keep_worksForOtherTypes_andDeepPaths() {
    Deployment full =
        new DeploymentBuilder()
            .withNewMetadata()
            .withNamespace("web")
            .withName("d")
            .endMetadata()
            .withNewSpec()
            .withReplicas(3)
            .withNewTemplate()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx:1")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    ConfigMap config =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .endMetadata()
            .addToData("k", "v")
            .build();

    Deployment slim =
        (Deployment)
            Projections.keep(
                    Deployment.class, "spec.replicas", "spec.template.spec.containers.image")
                .apply(full);
    ConfigMap slimConfig = (ConfigMap) Projections.keep(ConfigMap.class, "data").apply(config);

    assertThat(slim.getSpec().getReplicas()).isEqualTo(3);
    assertThat(slim.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1");
    assertThat(slim.getSpec().getTemplate().getSpec().getContainers().get(0).getName()).isNull();
    assertThat(slimConfig.getData()).isEqualTo(Map.of("k", "v"));
  }

  @Test
  void keep_selectsMapKeysAndListElements() {
    Pod full = fullPod("a");
    full.getMetadata().getLabels().put("app.kubernetes.io/name", "web");
    full.getStatus()
        .getConditions()
        .add(new PodConditionBuilder().withType("Initialized").withStatus("True").build());

    Pod slim =
        (Pod)
            Projections.keep(
                    Pod.class,
                    "metadata.labels[app.kubernetes.io/name]",
                    "metadata.annotations[absent]",
                    "status.conditions[type=Ready].status")
                .apply(full);

    assertThat(slim.getMetadata().getLabels()).isEqualTo(Map.of("app.kubernetes.io/name", "web"));
    assertThat(slim.getMetadata().getAnnotations()).isEmpty();
    assertThat(slim.getStatus().getConditions())
        .extracting(c -> c.getType() + "=" + c.getStatus() + "@" + c.getLastTransitionTime())
        .containsExactly("Ready=True@null");
  }

  @Test
  void keep_addsUpPathsOnOneField() {
    Pod full = fullPod("a");
    full.getStatus()
        .getConditions()
        .add(new PodConditionBuilder().withType("Initialized").withStatus("False").build());

    Pod slim =
        (Pod)
            Projections.keep(
                    Pod.class,
                    "metadata.labels[app]",
                    "metadata.labels",
                    "status.conditions[type=Ready].status",
                    "status.conditions.type")
                .apply(full);

    assertThat(slim.getMetadata().getLabels()).isEqualTo(full.getMetadata().getLabels());
    assertThat(slim.getStatus().getConditions())
        .extracting(c -> c.getType() + "=" + c.getStatus())
        .containsExactly("Ready=True", "Initialized=False");
  }

  @Test
  void keep_copiesAClassSeenThroughTwoFields_byWhatEachKeeps() {
    Deployment full =
        new DeploymentBuilder()
            .withNewMetadata()
            .withNamespace("web")
            .withName("d")
            .addToLabels("tier", "front")
            .addToAnnotations("note", "root")
            .endMetadata()
            .withNewSpec()
            .withNewTemplate()
            .withNewMetadata()
            .withName("t")
            .addToLabels("app", "web")
            .addToAnnotations("note", "template")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx:1")
            .endContainer()
            .addNewInitContainer()
            .withName("init")
            .withImage("busybox:1")
            .endInitContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();

    // ObjectMeta at metadata (identity only) and at the template (labels only); Container in
    // containers (names) and initContainers (images); then the template's metadata whole.
    Deployment some =
        (Deployment)
            Projections.keep(
                    Deployment.class,
                    "spec.template.metadata.labels",
                    "spec.template.spec.containers.name",
                    "spec.template.spec.initContainers.image")
                .apply(full);
    Deployment whole =
        (Deployment) Projections.keep(Deployment.class, "spec.template.metadata").apply(full);

    assertThat(some.getMetadata().getName()).isEqualTo("d");
    assertThat(some.getMetadata().getLabels()).isEmpty();
    assertThat(some.getSpec().getTemplate().getMetadata().getName()).isNull();
    assertThat(some.getSpec().getTemplate().getMetadata().getLabels())
        .isEqualTo(Map.of("app", "web"));
    assertThat(some.getSpec().getTemplate().getSpec().getContainers())
        .extracting(c -> c.getName() + "=" + c.getImage())
        .containsExactly("app=null");
    assertThat(some.getSpec().getTemplate().getSpec().getInitContainers())
        .extracting(c -> c.getName() + "=" + c.getImage())
        .containsExactly("null=busybox:1");
    assertThat(whole.getMetadata().getAnnotations()).isEmpty();
    assertThat(whole.getSpec().getTemplate().getMetadata())
        .isEqualTo(full.getSpec().getTemplate().getMetadata());
  }

  /** A container of a subclass, as a model extending fabric8's might hold. */
  public static class TracedContainer extends Container {
    public TracedContainer() {}
  }

  @Test
  void keep_copiesAnObjectOfASubclass_asItsOwnClass() {
    Pod full = fullPod("a");
    TracedContainer traced = new TracedContainer();
    traced.setName("traced");
    traced.setImage("busybox:1");
    traced.setArgs(List.of("sleep"));
    full.getSpec().getContainers().add(traced);

    Pod slim = (Pod) SLIM.apply(full);

    Container copy = slim.getSpec().getContainers().get(2);
    assertThat(copy).isExactlyInstanceOf(TracedContainer.class).isNotSameAs(traced);
    assertThat(copy.getName() + "=" + copy.getImage()).isEqualTo("traced=busybox:1");
    // Dropped lists and maps are the shared empty ones, not one per object.
    assertThat(copy.getArgs()).isSameAs(List.of());
    assertThat(slim.getSpec().getContainers().get(0).getEnv()).isSameAs(List.of());
    assertThat(slim.getSpec().getNodeSelector()).isSameAs(Map.of());
    assertThat(copy.getAdditionalProperties()).isSameAs(Map.of());
  }

  @Test
  void keep_worksForModelClassesThisPackageCannotCall() {
    HasMetadata gadget = Gadgets.gadget("g", "red", 3);

    HasMetadata color = Projections.keep(Gadgets.type(), "spec.color").apply(gadget);
    HasMetadata size = Projections.keep(Gadgets.type(), "spec.size").apply(gadget);

    assertThat(color).isExactlyInstanceOf(Gadgets.type());
    assertThat(color.getMetadata().getName()).isEqualTo("g");
    assertThat(Serialization.asJson(color)).contains("\"color\":\"red\"", "\"size\":0");
    assertThat(Serialization.asJson(size)).doesNotContain("red").contains("\"size\":3");
  }

  @Test
  void keep_keepsNullElementsAndValues_inUnmodifiableCopies() {
    Pod full = fullPod("a");
    full.getMetadata().getLabels().put("empty", null);
    full.getMetadata().getOwnerReferences().add(null);

    Pod slim = (Pod) SLIM.apply(full);

    assertThat(slim.getMetadata().getLabels()).containsEntry("empty", null).hasSize(2);
    assertThat(slim.getMetadata().getOwnerReferences()).hasSize(2).containsNull();
    assertThatThrownBy(() -> slim.getMetadata().getLabels().remove("empty"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> slim.getMetadata().getOwnerReferences().remove(1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void keep_refusesAnObjectOfAnotherType() {
    assertThatThrownBy(() -> SLIM.apply(new ConfigMap()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Pod")
        .hasMessageContaining("io.fabric8.kubernetes.api.model.ConfigMap");
  }

  @Test
  void keep_rejectsBadPaths_namingThePathAndTheFieldsThereAre() {
    assertThatThrownBy(() -> Projections.keep(Pod.class, "spec.contianers.image"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'spec.contianers.image'")
        .hasMessageContaining("PodSpec has no field 'contianers'")
        .hasMessageContaining("containers");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "metadata.labels.app"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'metadata.labels' has no fields");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "spec.containers[].image"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty selector");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "spec.containers[image].name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'spec.containers[image]' needs a selector 'field=value'");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "spec.nodeName[x]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'spec.nodeName[x]' is not a map nor a list of objects");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "metadata.labels[app"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no ']'");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "metadata.labels[app].x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ends the path");
    assertThatThrownBy(() -> Projections.keep(Pod.class, "spec..nodeName"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("malformed field path 'spec..nodeName'");
    assertThatThrownBy(() -> Projections.keep(Pod.class, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Projections.keep(Pod.class, (String) null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void lists_skipManagedFields_unlessTheProjectionKeepsThem() {
    assertThat(ListerWatchers.dropsManagedFields(SLIM)).isTrue();
    assertThat(ListerWatchers.dropsManagedFields(InformerOptions.stripManagedFields())).isTrue();
    assertThat(
            ListerWatchers.dropsManagedFields(
                Projections.keep(Pod.class, "metadata.managedFields")))
        .isFalse();
    assertThat(ListerWatchers.dropsManagedFields(Projections.keep(Pod.class, "metadata")))
        .isFalse();
    assertThat(ListerWatchers.dropsManagedFields(UnaryOperator.identity())).isFalse();
  }

  @Test
  void informer_cachesTheProjection_ofListedAndWatchedObjects() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    SharedInformer<Pod> informer =
        SharedInformers.create(
            Pod.class, server, InformerOptions.defaults().withTransform(SLIM), new ManualClock());
    try {
      informer.start();
      server.nextList().reply("7", List.of(fullPod("a")));
      Awaits.until(informer::hasSynced, "synced");
      Pod changed = fullPod("a");
      changed.getMetadata().setResourceVersion("8");
      changed.getStatus().setPhase("Failed");
      server.nextWatch().accept().modified(changed);
      Awaits.until(
          () ->
              "8"
                  .equals(
                      informer
                          .indexer()
                          .getByKey("web/a")
                          .orElseThrow()
                          .getMetadata()
                          .getResourceVersion()),
          "update cached");

      Pod cached = informer.indexer().getByKey("web/a").orElseThrow();
      assertThat(cached.getStatus().getPhase()).isEqualTo("Failed");
      assertThat(cached.getStatus().getPodIP()).isNull();
      assertThat(cached.getSpec().getVolumes()).isEmpty();
    } finally {
      informer.close();
    }
  }
}
