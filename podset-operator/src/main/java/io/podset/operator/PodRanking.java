package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * The order in which surplus pods are deleted: the first pod in this order goes first.
 *
 * <p>The ReplicaSet controller's ranking, so that the pods doing the least useful work go first:
 *
 * <ol>
 *   <li>unscheduled before scheduled;
 *   <li>Pending before Unknown before Running;
 *   <li>not ready before ready;
 *   <li>(ours) among pods equal so far, those not on the current template before those on it, so a
 *       scale-down during an update removes outdated pods first;
 *   <li>of two ready pods, the one ready more recently (an unknown ready time counts as most
 *       recent);
 *   <li>more container restarts before fewer;
 *   <li>newer before older (an unknown creation time counts as newest);
 *   <li>finally by name, so the order is total and deterministic.
 * </ol>
 */
final class PodRanking {

  private PodRanking() {}

  /**
   * The deletion order for pods of a PodSet whose current template hash is {@code currentHash}.
   *
   * @throws NullPointerException if {@code currentHash} is null
   */
  static Comparator<Pod> forDeletion(String currentHash) {
    Objects.requireNonNull(currentHash, "currentHash");
    Comparator<Pod> byScheduled = Comparator.comparing(Pods::isScheduled);
    Comparator<Pod> byPhase = Comparator.comparingInt(Pods::phaseRank);
    Comparator<Pod> byReady = Comparator.comparing(Pods::isReady);
    Comparator<Pod> byUpdated = Comparator.comparing(p -> currentHash.equals(Pods.templateHash(p)));
    Comparator<Pod> byReadySince =
        (a, b) ->
            Pods.isReady(a) && Pods.isReady(b)
                ? laterFirst(Pods.readySince(a), Pods.readySince(b))
                : 0;
    Comparator<Pod> byRestarts = Comparator.comparingInt(Pods::restarts).reversed();
    Comparator<Pod> byAge = (a, b) -> laterFirst(Pods.createdAt(a), Pods.createdAt(b));
    Comparator<Pod> byName =
        Comparator.comparing(
            p -> p.getMetadata().getName(), Comparator.nullsFirst(String::compareTo));
    return byScheduled
        .thenComparing(byPhase)
        .thenComparing(byReady)
        .thenComparing(byUpdated)
        .thenComparing(byReadySince)
        .thenComparing(byRestarts)
        .thenComparing(byAge)
        .thenComparing(byName);
  }

  /** Orders a later (or unknown) instant before an earlier one. */
  private static int laterFirst(Instant a, Instant b) {
    if (Objects.equals(a, b)) {
      return 0;
    }
    if (a == null) {
      return -1;
    }
    if (b == null) {
      return 1;
    }
    return b.compareTo(a);
  }
}
