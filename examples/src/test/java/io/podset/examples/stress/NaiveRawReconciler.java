package io.podset.examples.stress;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.examples.website.Website;
import io.podset.examples.website.WebsiteStatus;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.ownership.Finalizers;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.status.Conditions;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@link NaiveLogic} on the raw {@link Reconciler} API with the pattern the README used to show:
 * read the caches, write through the client. No barrier, no expectations: what a new user writes.
 */
final class NaiveRawReconciler implements Reconciler {

  private final KubernetesClient client;
  private final Indexer<Website> sites;
  private final Indexer<ConfigMap> pages;
  private final Indexer<Pod> pods;

  private NaiveRawReconciler(Manager manager) {
    this.client = manager.client();
    this.sites = manager.informers().informerFor(Website.class).indexer();
    this.pages = manager.informers().informerFor(ConfigMap.class).indexer();
    var podInformer = manager.informers().informerFor(Pod.class);
    if (!podInformer.indexer().indexNames().contains(Indexers.CONTROLLER_UID)) {
      podInformer.addIndexers(Map.of(Indexers.CONTROLLER_UID, Indexers.byControllerUid()));
    }
    this.pods = podInformer.indexer();
  }

  static void register(Manager manager) {
    NaiveRawReconciler reconciler = new NaiveRawReconciler(manager);
    manager.addController(
        () ->
            manager
                .controllerBuilder()
                .named("naive")
                .forResource(Website.class)
                .owns(ConfigMap.class)
                .owns(Pod.class)
                .workers(4)
                .reconciler(reconciler)
                .build());
  }

  @Override
  public Result reconcile(Request request) {
    Optional<Website> cached = sites.getByKey(request.toString());
    if (cached.isEmpty()) {
      return Result.done();
    }
    Website site = client.getKubernetesSerialization().clone(cached.get());
    if (Finalizers.isBeingDeleted(site)) {
      if (Finalizers.remove(site, NaiveLogic.FINALIZER)) {
        client.resource(site).update();
      }
      return Result.done();
    }
    if (Finalizers.add(site, NaiveLogic.FINALIZER)) {
      site = client.resource(site).update();
    }
    ConfigMap desired = NaiveLogic.page(site);
    Optional<ConfigMap> page =
        pages.getByKey(request.namespace() + "/" + desired.getMetadata().getName());
    if (page.isEmpty()) {
      OwnerReferences.setControllerReference(site, desired);
      client.resource(desired).create();
    } else if (!desired.getData().equals(page.get().getData())) {
      ConfigMap changed = client.getKubernetesSerialization().clone(page.get());
      changed.setData(desired.getData());
      client.resource(changed).update();
    }
    if (pods.byIndex(Indexers.CONTROLLER_UID, site.getMetadata().getUid()).isEmpty()) {
      Pod pod = NaiveLogic.server(site);
      OwnerReferences.setControllerReference(site, pod);
      client.resource(pod).create();
    }
    if (site.getStatus() == null) {
      site.setStatus(new WebsiteStatus());
    }
    String html = site.getSpec().html();
    site.getStatus()
        .setCondition(
            Conditions.of(
                "Ready", true, "Serving", html, site.getMetadata().getGeneration(), Instant.now()));
    WebsiteStatus before = cached.get().getStatus();
    if (before == null || !site.getStatus().getConditions().equals(before.getConditions())) {
      client.resource(site).updateStatus();
    }
    return Result.done();
  }
}
