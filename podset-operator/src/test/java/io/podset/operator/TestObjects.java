package io.podset.operator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds PodSets and pods as the cache would hold them. */
final class TestObjects {

  static final String NAMESPACE = "default";
  static final String UID = "uid-podset-web";
  static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

  private TestObjects() {}

  /** A pod named {@code name} that no PodSet owns or selects (one busybox container). */
  static Pod unrelatedPod(String name) {
    return new io.fabric8.kubernetes.api.model.PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .build();
  }

  /** PodSet {@code default/web} with uid {@link #UID}, generation 1 and {@code spec}. */
  static PodSet podSet(PodSetSpec spec) {
    PodSet podSet = PodSet.of(NAMESPACE, "web", spec);
    podSet.getMetadata().setUid(UID);
    podSet.getMetadata().setGeneration(1L);
    podSet.getMetadata().setResourceVersion("10");
    return podSet;
  }

  static PodSet podSet(int replicas) {
    return podSet(PodSetSpec.ofReplicas(replicas));
  }

  /** A template with one container {@code app} running {@code image}. */
  static PodTemplateSpec template(String image) {
    PodTemplateSpec template = new PodTemplateSpec();
    template.setMetadata(new ObjectMeta());
    template.getMetadata().setLabels(new LinkedHashMap<>(Map.of("tier", "web")));
    io.fabric8.kubernetes.api.model.PodSpec spec = new io.fabric8.kubernetes.api.model.PodSpec();
    io.fabric8.kubernetes.api.model.Container container =
        new io.fabric8.kubernetes.api.model.Container();
    container.setName("app");
    container.setImage(image);
    spec.setContainers(new ArrayList<>(List.of(container)));
    template.setSpec(spec);
    return template;
  }

  /** A pod the server stored from {@code podSet}'s current template, running and ready. */
  static PodBuilder podOf(PodSet podSet, String name) {
    Pod pod =
        PodTemplates.newPod(
            podSet,
            podSet.getSpec().effectiveTemplate(),
            PodTemplateHash.of(podSet.getSpec().effectiveTemplate()));
    pod.getMetadata().setName(name);
    pod.getMetadata().setGenerateName(null);
    pod.getMetadata().setUid("uid-" + name);
    pod.getMetadata().setResourceVersion("5");
    pod.getMetadata().setCreationTimestamp(T0.toString());
    pod.getSpec().setNodeName("node-1");
    pod.setStatus(new PodStatus());
    return new PodBuilder(pod).phase("Running").ready(true, T0);
  }

  /** Fluent changes to a pod; {@link #build()} returns it. */
  static final class PodBuilder {
    private final Pod pod;

    PodBuilder(Pod pod) {
      this.pod = pod;
    }

    PodBuilder phase(String phase) {
      pod.getStatus().setPhase(phase);
      return this;
    }

    PodBuilder ready(boolean ready, Instant since) {
      pod.getStatus()
          .setConditions(
              new ArrayList<>(
                  List.of(
                      new PodConditionBuilder()
                          .withType("Ready")
                          .withStatus(ready ? "True" : "False")
                          .withLastTransitionTime(since == null ? null : since.toString())
                          .build())));
      return this;
    }

    PodBuilder notReady() {
      return ready(false, T0);
    }

    PodBuilder unscheduled() {
      pod.getSpec().setNodeName(null);
      return phase("Pending").notReady();
    }

    PodBuilder created(Instant at) {
      pod.getMetadata().setCreationTimestamp(at.toString());
      return this;
    }

    PodBuilder restarts(int restarts) {
      ContainerStatus status =
          new ContainerStatusBuilder()
              .withName(pod.getSpec().getContainers().get(0).getName())
              .withRestartCount(restarts)
              .withImage(pod.getSpec().getContainers().get(0).getImage())
              .build();
      pod.getStatus().setContainerStatuses(new ArrayList<>(List.of(status)));
      return this;
    }

    PodBuilder statusImage(String image) {
      ContainerStatus status =
          new ContainerStatusBuilder()
              .withName(pod.getSpec().getContainers().get(0).getName())
              .withRestartCount(0)
              .withImage(image)
              .build();
      pod.getStatus().setContainerStatuses(new ArrayList<>(List.of(status)));
      return this;
    }

    PodBuilder terminating() {
      pod.getMetadata().setDeletionTimestamp(T0.plusSeconds(60).toString());
      return this;
    }

    PodBuilder label(String key, String value) {
      if (value == null) {
        pod.getMetadata().getLabels().remove(key);
      } else {
        pod.getMetadata().getLabels().put(key, value);
      }
      return this;
    }

    PodBuilder orphan() {
      pod.getMetadata().setOwnerReferences(new ArrayList<>());
      return this;
    }

    PodBuilder controlledBy(String kind, String name, String uid) {
      pod.getMetadata()
          .setOwnerReferences(
              new ArrayList<>(
                  List.of(
                      new OwnerReferenceBuilder()
                          .withApiVersion("apps/v1")
                          .withKind(kind)
                          .withName(name)
                          .withUid(uid)
                          .withController(true)
                          .build())));
      return this;
    }

    PodBuilder image(String image) {
      pod.getSpec().getContainers().get(0).setImage(image);
      return this;
    }

    Pod build() {
      return pod;
    }
  }
}
