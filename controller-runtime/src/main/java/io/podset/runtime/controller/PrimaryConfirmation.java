package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.podset.runtime.reconcile.PrimaryGoneException;
import io.podset.runtime.reconcile.Request;
import java.util.Optional;

/**
 * Whether the primary of one reconcile is still on the server, asked before each write of the
 * reconcile that would create an object it owns: a reconcile running on a primary cache that has
 * not shown the primary's deletion yet would create children for the dead, which the garbage
 * collector deletes again (churn, and work started for nothing).
 *
 * <p>Free while the caches vouch for the primary ({@link RecentFaults#cachesVouchFor}: the
 * primaries' cache follows its watch and no fault is about): the common path sends no request. A
 * primary the cache itself no longer shows (gone, another uid, being deleted) is gone, also free.
 * Otherwise one GET of the primary per reconcile: the same uid and no {@code deletionTimestamp}
 * confirm it for the rest of the reconcile; anything else makes this and every later create of the
 * reconcile throw {@link PrimaryGoneException} before sending anything. A failed GET throws its
 * failure (the reconcile is retried, and the retry confirms again).
 *
 * <p>One instance per reconcile, used from its thread only.
 */
final class PrimaryConfirmation<P extends HasMetadata> {

  private enum State {
    UNKNOWN,
    CONFIRMED,
    GONE
  }

  private final ControllerResources<P> resources;
  private final RecentFaults faults;
  private final Request request;
  private final String uid;
  private State state = State.UNKNOWN;

  PrimaryConfirmation(
      ControllerResources<P> resources, RecentFaults faults, Request request, P cached) {
    this.resources = resources;
    this.faults = faults;
    this.request = request;
    this.uid = cached.getMetadata().getUid();
  }

  /**
   * Returns when an object owned by the primary may be created.
   *
   * @throws PrimaryGoneException if the primary is gone from the server (or the cache shows it
   *     gone)
   */
  void beforeCreate() {
    if (state == State.UNKNOWN) {
      if (!live(resources.primaries().indexer().getByKey(request.toString()))) {
        state = State.GONE; // the cache caught up meanwhile
      } else if (faults.cachesVouchFor(request)) {
        return; // asked again at the next create: a cache may stop following meanwhile
      } else {
        P live = resources.livePrimary(request.namespace(), request.name());
        state = live(Optional.ofNullable(live)) ? State.CONFIRMED : State.GONE;
      }
    }
    if (state == State.GONE) {
      throw new PrimaryGoneException(
          HasMetadata.getKind(resources.primaryType())
              + " "
              + request
              + " (uid "
              + uid
              + ") is gone from the server: nothing created for it");
    }
  }

  /** True once a create found the primary gone. */
  boolean gone() {
    return state == State.GONE;
  }

  private boolean live(Optional<P> primary) {
    if (primary.isEmpty()) {
      return false;
    }
    ObjectMeta meta = primary.get().getMetadata();
    return uid != null && uid.equals(meta.getUid()) && meta.getDeletionTimestamp() == null;
  }
}
