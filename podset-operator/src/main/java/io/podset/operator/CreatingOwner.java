package io.podset.operator;

import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.cache.Store;
import io.podset.runtime.reconcile.Request;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Whether the PodSet a pass is creating pods for is still there, asked before each create of the
 * pass. A pass sends its creates in slow-start batches that can take a second under latency; a
 * deletion committed meanwhile made every later create a pod for an owner that is gone (the chaos
 * soak's last pods created for deleted PodSets landed 0–740 ms after the deletion, from one pass's
 * batches). Two signals end the pass early, both cheap:
 *
 * <ul>
 *   <li>the PodSet cache no longer shows this PodSet (gone, another uid, or being deleted): free;
 *   <li>the pod cache saw pods of this PodSet deleted that the operator did not delete ({@link
 *       UnconfirmedOwners}: the garbage collector at work while the PodSet cache lags): one GET of
 *       the PodSet, as the reconciler makes before a pass for such a PodSet.
 * </ul>
 *
 * <p>A deletion neither cache shows yet while a create is in flight is still the garbage
 * collector's, as for any controller. One instance per pass; thread-safe (the creates of a batch
 * ask in parallel; a GET under the lock makes them wait for its answer instead of each sending
 * one).
 */
final class CreatingOwner {

  private final Request request;
  private final String uid;
  private final Store<PodSet> podSets;
  private final UnconfirmedOwners unconfirmed;
  private final Predicate<PodSet> confirmLive;

  private final Object lock = new Object();
  // Guarded by lock. Once the pass stopped it stays stopped.
  private boolean stopped;
  // Guarded by lock. Why the confirming GET failed; null while it has not failed.
  private RuntimeException failure;

  /**
   * @param confirmLive reads the PodSet from the server: true when the server still has it (and
   *     clears its {@link UnconfirmedOwners} mark); may throw when the read fails
   */
  CreatingOwner(
      Request request,
      PodSet podSet,
      Store<PodSet> podSets,
      UnconfirmedOwners unconfirmed,
      Predicate<PodSet> confirmLive) {
    this.request = Objects.requireNonNull(request, "request");
    this.uid = Objects.requireNonNull(podSet.getMetadata().getUid(), "podSet uid");
    this.podSets = Objects.requireNonNull(podSets, "podSets");
    this.unconfirmed = Objects.requireNonNull(unconfirmed, "unconfirmed");
    this.confirmLive = Objects.requireNonNull(confirmLive, "confirmLive");
  }

  /** True when the next create may be sent; false from the first time it may not. */
  boolean mayCreate() {
    synchronized (lock) {
      if (stopped) {
        return false;
      }
      Optional<PodSet> cached = podSets.getByKey(request.toString());
      if (cached.isEmpty()
          || !uid.equals(cached.get().getMetadata().getUid())
          || cached.get().getMetadata().getDeletionTimestamp() != null) {
        stopped = true;
      } else if (unconfirmed.isMarked(request)) {
        try {
          stopped = !confirmLive.test(cached.get());
        } catch (RuntimeException e) {
          failure = e;
          stopped = true;
        }
      }
      return !stopped;
    }
  }

  /** True when {@link #mayCreate} said no: the PodSet is gone, or it could not be confirmed. */
  boolean stopped() {
    synchronized (lock) {
      return stopped;
    }
  }

  /** Why the PodSet could not be confirmed (the read failed), or null. */
  RuntimeException failure() {
    synchronized (lock) {
      return failure;
    }
  }
}
