package io.podset.operator;

import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.cache.Store;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Whether the PodSet a pass is creating pods for is still there, asked before each create of the
 * pass. A pass sends its creates last, after its deletes and patches, and in slow-start batches
 * that can take a second under latency; a deletion committed meanwhile made every later create a
 * pod for an owner that is gone (the chaos soak's last pods created for deleted PodSets landed
 * 0–740 ms after the deletion, from one pass's batches, and 3 and 26 ms after it from a pass that
 * had confirmed the PodSet 36 ms before the deletion, before its other writes). These signals end
 * the pass early:
 *
 * <ul>
 *   <li>the PodSet cache no longer shows this PodSet (gone, another uid, or being deleted): free;
 *   <li>the caches do not vouch for the PodSet when the first batch starts (faults about, see
 *       {@link io.podset.runtime.controller.RecentFaults}): one GET right before the first create,
 *       not at the start of the pass, so that the pass's other writes do not widen the window
 *       between the read and the creates;
 *   <li>the pod cache saw pods of this PodSet deleted that the operator did not delete ({@link
 *       UnconfirmedOwners}: the garbage collector at work while the PodSet cache lags): one GET of
 *       the PodSet, as the reconciler makes before a pass for such a PodSet;
 *   <li>the previous batch took longer than {@code slowBatch} while the caches do not vouch for the
 *       PodSet (faults about, see {@link io.podset.runtime.controller.RecentFaults}): one GET
 *       before the first create of the next batch, since a deletion may have committed meanwhile
 *       that the PodSet cache shows later. Without faults a slow batch (a busy server) sends no
 *       GET: a cache that follows shows a deletion within the tolerance, and the check above stops
 *       the pass for free.
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
  private final Clock clock;
  private final long slowBatchNanos;
  private final BooleanSupplier cachesVouch;

  private final Object lock = new Object();
  // Guarded by lock. Once the pass stopped it stays stopped.
  private boolean stopped;
  // Guarded by lock. Why the confirming GET failed; null while it has not failed.
  private RuntimeException failure;
  // Guarded by lock. When the current batch started (valid once batched); whether the next create
  // must confirm the PodSet first (the previous batch was slow).
  private boolean batched;
  private long batchStartedNanos;
  private boolean confirmNext;

  /**
   * @param confirmLive reads the PodSet from the server: true when the server still has it (and
   *     clears its {@link UnconfirmedOwners} mark); may throw when the read fails
   * @param slowBatch how long a batch may take before the next one confirms the PodSet first,
   *     unless {@code cachesVouch} says the caches alone can be trusted
   */
  CreatingOwner(
      Request request,
      PodSet podSet,
      Store<PodSet> podSets,
      UnconfirmedOwners unconfirmed,
      Predicate<PodSet> confirmLive,
      Clock clock,
      Duration slowBatch,
      BooleanSupplier cachesVouch) {
    this.request = Objects.requireNonNull(request, "request");
    this.uid = Objects.requireNonNull(podSet.getMetadata().getUid(), "podSet uid");
    this.podSets = Objects.requireNonNull(podSets, "podSets");
    this.unconfirmed = Objects.requireNonNull(unconfirmed, "unconfirmed");
    this.confirmLive = Objects.requireNonNull(confirmLive, "confirmLive");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.slowBatchNanos = slowBatch.toNanos();
    this.cachesVouch = Objects.requireNonNull(cachesVouch, "cachesVouch");
  }

  /**
   * A slow-start batch is about to be sent: if the caches do not vouch for the PodSet and this is
   * the first batch, or the previous one took longer than the slow-batch limit, the next {@link
   * #mayCreate} confirms it first.
   */
  void batchStarts() {
    synchronized (lock) {
      long now = clock.nanoTime();
      if ((!batched || now - batchStartedNanos > slowBatchNanos) && !cachesVouch.getAsBoolean()) {
        confirmNext = true;
      }
      batched = true;
      batchStartedNanos = now;
    }
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
      } else if (confirmNext || unconfirmed.isMarked(request)) {
        confirmNext = false;
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
