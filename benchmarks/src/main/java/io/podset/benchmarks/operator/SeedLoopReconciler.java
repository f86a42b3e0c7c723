package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.cache.Store;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The seed article's reconcile loop on our runtime, the baseline of benchmark 3: it counts the
 * cached pods the PodSet controls (Pending or Running, not terminating), writes the status with a
 * plain update when it differs (the cached resourceVersion: a stale cache gives 409), then creates
 * or deletes ONE pod and returns. No expectations: a reconcile that runs before the cache shows its
 * last create creates another pod, and a later pass deletes the surplus.
 */
final class SeedLoopReconciler implements Reconciler {

  private final KubernetesClient client;
  private final Store<PodSet> podSets;
  private final Indexer<Pod> pods;

  SeedLoopReconciler(KubernetesClient client, Store<PodSet> podSets, Indexer<Pod> pods) {
    this.client = Objects.requireNonNull(client, "client");
    this.podSets = Objects.requireNonNull(podSets, "podSets");
    this.pods = Objects.requireNonNull(pods, "pods");
  }

  @Override
  public Result reconcile(Request request) {
    Optional<PodSet> cached = podSets.getByKey(request.toString());
    if (cached.isEmpty()) {
      return Result.done();
    }
    PodSet podSet = cached.get();
    List<Pod> available =
        pods.byIndex(Indexers.CONTROLLER_UID, podSet.getMetadata().getUid()).stream()
            .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
            .filter(
                p -> isPendingOrRunning(p.getStatus() == null ? null : p.getStatus().getPhase()))
            .toList();
    int ready = (int) available.stream().filter(SeedLoopReconciler::isReady).count();
    PodSetStatus status =
        PodSetStatus.empty().toBuilder()
            .replicas(available.size())
            .readyReplicas(ready)
            .podNames(available.stream().map(p -> p.getMetadata().getName()).sorted().toList())
            .build();
    String namespace = podSet.getMetadata().getNamespace();
    if (!status.equals(podSet.getStatus())) {
      PodSet update = new PodSet();
      update.setMetadata(new ObjectMetaBuilder(podSet.getMetadata()).build());
      update.setSpec(podSet.getSpec());
      update.setStatus(status);
      // A 409 propagates: the runtime retries with its rate limiter, as controller-runtime does.
      client.resources(PodSet.class).inNamespace(namespace).resource(update).updateStatus();
    }
    int replicas = podSet.getSpec().effectiveReplicas();
    if (available.size() > replicas) {
      client
          .pods()
          .inNamespace(namespace)
          .withName(available.get(0).getMetadata().getName())
          .delete();
    } else if (available.size() < replicas) {
      client.pods().inNamespace(namespace).resource(newPod(podSet)).create();
    }
    return Result.done();
  }

  private static boolean isPendingOrRunning(String phase) {
    return phase == null || "Pending".equals(phase) || "Running".equals(phase);
  }

  private static boolean isReady(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      if ("Ready".equals(condition.getType())) {
        return "True".equals(condition.getStatus());
      }
    }
    return false;
  }

  /** The seed's pod: a busybox sleeping, labelled and controlled by the PodSet. */
  private static Pod newPod(PodSet podSet) {
    String name = podSet.getMetadata().getName();
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withGenerateName(name + "-pod-")
            .withNamespace(podSet.getMetadata().getNamespace())
            .withLabels(Map.of("app", name))
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("busybox")
            .withImage("busybox")
            .withCommand("sleep", "3600")
            .endContainer()
            .endSpec()
            .build();
    OwnerReferences.setControllerReference(podSet, pod);
    return pod;
  }
}
