package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.cache.MutableIndexer;
import io.podset.runtime.cache.ObjectKey;
import io.podset.runtime.event.Event;
import io.podset.runtime.handler.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Caches that show the server's state only when the test says so, standing in for informers (pods
 * cached as {@link PodSetController#POD_PROJECTION} projects them, as the operator's informer): a
 * cache the test does not sync is a stale cache, and {@link #syncPods(Predicate)} delivers some pod
 * events while holding others back. Each pod change is passed to the registered pod handler, as an
 * informer would, after the cache is updated.
 */
final class ManualCaches {

  private final KubernetesClient client;
  private final String namespace;
  final MutableIndexer<PodSet> podSets = MutableIndexer.create();
  final MutableIndexer<Pod> pods = MutableIndexer.create();
  private volatile String podVersion = "0";
  private EventHandler<Pod> podHandler = event -> List.of();
  // Events the handler has not received yet while it is held (a slow handler), oldest first.
  private final List<Event<Pod>> lateEvents = new ArrayList<>();
  private boolean handlerHeld;

  ManualCaches(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    pods.addIndexers(PodSetReconciler.podIndexers());
  }

  void onPodEvents(EventHandler<Pod> handler) {
    this.podHandler = Objects.requireNonNull(handler, "handler");
  }

  /**
   * From now on the pod cache (and its version) still follows the syncs but the pod handler gets
   * their events only at {@link #releasePodHandler()}: a slow handler behind a current cache.
   */
  void holdPodHandler() {
    handlerHeld = true;
  }

  /** Passes the held events to the pod handler, in order, and stops holding it. */
  void releasePodHandler() {
    handlerHeld = false;
    for (Event<Pod> event : lateEvents) {
      podHandler.requestsFor(event);
    }
    lateEvents.clear();
  }

  private void notifyHandler(Event<Pod> event) {
    if (handlerHeld) {
      lateEvents.add(event);
    } else {
      podHandler.requestsFor(event);
    }
  }

  /** The resourceVersion up to which the pod cache is complete. */
  String podVersion() {
    return podVersion;
  }

  /** Shows the current PodSets and pods. */
  void sync() {
    syncPodSets();
    syncPods(pod -> true);
  }

  void syncPodSets() {
    List<PodSet> items = client.resources(PodSet.class).inNamespace(namespace).list().getItems();
    podSets.replace(items);
  }

  /**
   * Applies the server's pod changes that {@code deliver} accepts (judged on the new state, or the
   * last cached state for a deletion) and holds back the rest. The pod cache's version advances to
   * the list's only when nothing was held back.
   *
   * @return the number of changes held back
   */
  int syncPods(Predicate<Pod> deliver) {
    PodList list = client.pods().inNamespace(namespace).list();
    // Cached as the operator's pod informer caches them, so that a read of a field the projection
    // drops fails the reconciler's tests.
    Map<String, Pod> current =
        list.getItems().stream()
            .collect(
                Collectors.toMap(
                    p -> p.getMetadata().getName(),
                    p -> (Pod) PodSetController.POD_PROJECTION.apply(p),
                    (a, b) -> a));
    int heldBack = 0;
    for (Pod cached : pods.list()) {
      if (!current.containsKey(cached.getMetadata().getName())) {
        if (deliver.test(cached)) {
          pods.delete(ObjectKey.of(cached));
          notifyHandler(new Event.Deleted<>(cached, false));
        } else {
          heldBack++;
        }
      }
    }
    for (Pod pod : current.values()) {
      Pod old = pods.get(ObjectKey.of(pod)).orElse(null);
      if (old != null
          && old.getMetadata()
              .getResourceVersion()
              .equals(pod.getMetadata().getResourceVersion())) {
        continue;
      }
      if (!deliver.test(pod)) {
        heldBack++;
        continue;
      }
      pods.upsert(pod);
      notifyHandler(old == null ? new Event.Added<>(pod) : new Event.Updated<>(old, pod));
    }
    if (heldBack == 0) {
      podVersion = list.getMetadata().getResourceVersion();
    }
    return heldBack;
  }
}
