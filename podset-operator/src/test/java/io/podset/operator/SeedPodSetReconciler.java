package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.cache.Store;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import java.util.List;
import java.util.Optional;

/**
 * The seed article's reconciler, kept only as a test double and baseline: it compares the cached
 * pod count with {@code spec.replicas} and creates or deletes ONE pod per reconcile, with no
 * expectations, so a stale cache makes it create pods it already created.
 */
final class SeedPodSetReconciler implements Reconciler {

  private final KubernetesClient client;
  private final Store<PodSet> podSets;
  private final Indexer<Pod> pods;

  SeedPodSetReconciler(KubernetesClient client, Store<PodSet> podSets, Indexer<Pod> pods) {
    this.client = client;
    this.podSets = podSets;
    this.pods = pods;
  }

  @Override
  public Result reconcile(Request request) {
    Optional<PodSet> cached = podSets.getByKey(request.toString());
    if (cached.isEmpty()) {
      return Result.done();
    }
    PodSet podSet = cached.get();
    List<Pod> owned =
        pods.byIndex(Indexers.CONTROLLER_UID, podSet.getMetadata().getUid()).stream()
            .filter(Pods::isActive)
            .toList();
    int replicas = podSet.getSpec().effectiveReplicas();
    String namespace = podSet.getMetadata().getNamespace();
    if (owned.size() < replicas) {
      var template = podSet.getSpec().effectiveTemplate();
      Pod pod = PodTemplates.newPod(podSet, template, PodTemplateHash.of(template));
      client.pods().inNamespace(namespace).resource(pod).create();
    } else if (owned.size() > replicas) {
      client.pods().inNamespace(namespace).withName(owned.get(0).getMetadata().getName()).delete();
    }
    return Result.done();
  }
}
