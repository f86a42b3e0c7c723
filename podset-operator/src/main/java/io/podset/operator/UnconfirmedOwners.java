package io.podset.operator;

import io.podset.runtime.reconcile.Request;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PodSets that lost pods the operator did not delete, and whose existence the reconciler must
 * confirm with a live read before it writes anything for them.
 *
 * <p>Why: the garbage collector deletes a PodSet's pods once the PodSet is gone, and those pod
 * deletions may reach the pod informer before the PodSet's deletion reaches the PodSet informer.
 * Reading only the caches, the reconciler would then see a PodSet short of pods and create
 * replacements for an owner that no longer exists (each collected again at once, in a loop while
 * the PodSet cache lags). A pod deleted behind the operator's back is rare, so the read costs
 * nothing in the common paths: scaling, rolling, or our own deletions never mark a PodSet.
 *
 * <p>Thread-safe: marked by the pod event handler, read and cleared by reconciles.
 */
final class UnconfirmedOwners {

  private final Set<Request> marked = ConcurrentHashMap.newKeySet();

  /** {@code podSet} lost a pod it did not ask to delete. */
  void mark(Request podSet) {
    marked.add(Objects.requireNonNull(podSet, "podSet"));
  }

  boolean isMarked(Request podSet) {
    return marked.contains(podSet);
  }

  /** A live read showed the cached {@code podSet} is the one on the server, or it is gone. */
  void clear(Request podSet) {
    marked.remove(podSet);
  }
}
