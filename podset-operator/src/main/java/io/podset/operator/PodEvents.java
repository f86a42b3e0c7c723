package io.podset.operator;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.event.Event;
import io.podset.runtime.expectations.Expectations;
import io.podset.runtime.handler.EventHandler;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Request;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The handler of pod events, as the ReplicaSet controller's: first it tells the expectations what
 * the cache now shows (a pod created for a PodSet, a pod deleted or terminating), then it names the
 * PodSets to reconcile: the pod's controller when it is a PodSet (old and new, if it changed), and,
 * for a pod without a controller, the PodSet its label names (so orphans are adopted promptly).
 *
 * <p>A pod of a PodSet deleted (or terminating) without the operator having asked for it marks the
 * PodSet in {@link UnconfirmedOwners}: it may be the garbage collector at work on a PodSet whose
 * own deletion the PodSet cache has not shown yet.
 *
 * <p>Doing all this in one handler matters: the expectation is lowered and the mark set before the
 * reconcile it triggers can run. Called on the controller's handler thread of the pod informer;
 * fast and non-blocking.
 */
final class PodEvents implements EventHandler<Pod> {

  private final Expectations<Request> expectations;
  private final UnconfirmedOwners unconfirmed;

  PodEvents(Expectations<Request> expectations, UnconfirmedOwners unconfirmed) {
    this.expectations = expectations;
    this.unconfirmed = unconfirmed;
  }

  @Override
  public Collection<Request> requestsFor(Event<Pod> event) {
    Pod pod = event.object();
    Optional<Request> owner = podSetOf(pod);
    String uid = pod.getMetadata().getUid();
    if (event instanceof Event.Added<Pod>) {
      if (Pods.isTerminating(pod)) {
        owner.ifPresent(key -> deletionObserved(key, uid));
      } else {
        owner.ifPresent(key -> expectations.creationObserved(key, uid));
      }
    } else if (event instanceof Event.Updated<Pod> updated) {
      if (Pods.isTerminating(pod) && !Pods.isTerminating(updated.oldObject())) {
        owner.ifPresent(key -> deletionObserved(key, uid));
      }
    } else if (Pods.isTerminating(pod)) {
      // Already counted as deleted when it started terminating.
      owner.ifPresent(key -> expectations.deletionObserved(key, uid));
    } else {
      owner.ifPresent(key -> deletionObserved(key, uid));
    }
    List<Request> requests = new ArrayList<>(2);
    addTarget(requests, pod);
    if (event instanceof Event.Updated<Pod> updated) {
      addTarget(requests, updated.oldObject());
    }
    return requests;
  }

  private void deletionObserved(Request owner, String uid) {
    if (!expectations.pendingDeletions(owner).contains(uid)) {
      unconfirmed.mark(owner);
    }
    expectations.deletionObserved(owner, uid);
  }

  private static void addTarget(List<Request> requests, Pod pod) {
    Optional<Request> target = podSetOf(pod);
    if (target.isEmpty() && OwnerReferences.getControllerOf(pod).isEmpty()) {
      String label =
          pod.getMetadata().getLabels() == null
              ? null
              : pod.getMetadata().getLabels().get(PodSetLabels.PODSET);
      if (label != null && !label.isEmpty() && !Pods.isTerminating(pod)) {
        target = Optional.of(new Request(pod.getMetadata().getNamespace(), label));
      }
    }
    target.filter(r -> !requests.contains(r)).ifPresent(requests::add);
  }

  /** The PodSet controlling {@code pod}, if a PodSet controls it. */
  static Optional<Request> podSetOf(Pod pod) {
    Optional<OwnerReference> controller = OwnerReferences.getControllerOf(pod);
    if (controller.isEmpty()) {
      return Optional.empty();
    }
    OwnerReference ref = controller.get();
    if (!PodSet.KIND.equals(ref.getKind())
        || !PodSet.GROUP.equals(OwnerReferences.groupOf(ref.getApiVersion()))
        || ref.getName() == null) {
      return Optional.empty();
    }
    return Optional.of(new Request(pod.getMetadata().getNamespace(), ref.getName()));
  }
}
