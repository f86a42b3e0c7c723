package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Computes the status a PodSet should have: a pure function of the PodSet, its counted pods, the
 * outcome of the pass and the time. Starting from the stored status keeps each condition's {@code
 * lastTransitionTime} while its status is unchanged, so computing the status of a settled PodSet
 * again yields an equal value and no write.
 *
 * <p>When: {@link #writeNow} defers the status of a pass that wrote pods to the pass their events
 * trigger, so converging a new PodSet costs one status write, not two.
 *
 * <p>Conditions:
 *
 * <ul>
 *   <li>{@value PodSetCondition#AVAILABLE}: True ({@code AllReplicasAvailable}) when at least
 *       {@code spec.replicas} pods are available, else False ({@code ReplicasUnavailable}).
 *   <li>{@value PodSetCondition#PROGRESSING}: True while pods are created ({@code ScalingUp}),
 *       deleted ({@code ScalingDown}) or brought to the current template ({@code Updating}); False
 *       ({@code Complete}) once the count is right and every pod is on the current template.
 *   <li>{@value PodSetCondition#REPLICA_FAILURE}: True with the failure's reason and message while
 *       the last pass failed; removed after a pass without failure.
 * </ul>
 */
public final class PodSetStatuses {

  private PodSetStatuses() {}

  /**
   * The status for {@code podSet} given the pods the plan counted.
   *
   * @param podSet the PodSet as cached (its stored status is the starting point)
   * @param plan the pass's plan; its {@link PodSetPlan#active()} pods are counted
   * @param failure what failed in this pass, or null
   * @param now the time for conditions that change
   */
  public static PodSetStatus compute(
      PodSet podSet, PodSetPlan plan, ReplicaFailure failure, Instant now) {
    Objects.requireNonNull(podSet, "podSet");
    return compute(
        podSet,
        podSet.getStatus() == null ? PodSetStatus.empty() : podSet.getStatus(),
        plan,
        failure,
        now);
  }

  /**
   * The status for {@code podSet} starting from {@code current}, the status it has on the server as
   * far as the caller knows (which may be newer than the cached PodSet's).
   */
  public static PodSetStatus compute(
      PodSet podSet, PodSetStatus current, PodSetPlan plan, ReplicaFailure failure, Instant now) {
    Objects.requireNonNull(podSet, "podSet");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(now, "now");
    PodSetSpec spec = podSet.getSpec() == null ? PodSetSpec.defaults() : podSet.getSpec();
    int desired = Math.max(0, spec.effectiveReplicas());
    List<Pod> active = plan.active();
    String hash = plan.templateHash().full();
    int ready = (int) active.stream().filter(Pods::isReady).count();
    int available = (int) active.stream().filter(Pods::isAvailable).count();
    int updated = (int) active.stream().filter(p -> hash.equals(Pods.templateHash(p))).count();
    Long generation = podSet.getMetadata().getGeneration();

    PodSetStatus status =
        current.toBuilder()
            .replicas(active.size())
            .readyReplicas(ready)
            .availableReplicas(available)
            .updatedReplicas(updated)
            .podNames(active.stream().map(p -> p.getMetadata().getName()).toList())
            .observedGeneration(generation == null ? 0 : generation)
            .selector(PodSetLabels.selectorString(podSet))
            .build();

    status =
        status.withCondition(
            available >= desired
                ? PodSetCondition.of(
                    PodSetCondition.AVAILABLE,
                    PodSetCondition.TRUE,
                    "AllReplicasAvailable",
                    available + " of " + desired + " pods available",
                    now)
                : PodSetCondition.of(
                    PodSetCondition.AVAILABLE,
                    PodSetCondition.FALSE,
                    "ReplicasUnavailable",
                    available + " of " + desired + " pods available",
                    now));
    status = status.withCondition(progressing(active.size(), updated, desired, now));
    if (failure != null) {
      status =
          status.withCondition(
              PodSetCondition.of(
                  PodSetCondition.REPLICA_FAILURE,
                  PodSetCondition.TRUE,
                  failure.reason(),
                  failure.message(),
                  now));
    } else {
      status = status.withoutCondition(PodSetCondition.REPLICA_FAILURE);
    }
    return status;
  }

  /**
   * Whether the status computed in a pass should be written now. A pass whose pod writes all
   * succeeded defers it: the pod events of those writes trigger the next pass, which counts the new
   * pods and writes the status once, instead of writing one now (counting the pods from before the
   * writes) and another a moment later. A pass with a failure writes at once, so the {@value
   * PodSetCondition#REPLICA_FAILURE} condition shows; so does a pass that wrote no pod (nothing
   * else will come to write for it). A status that differs from {@code current} only in the message
   * of a {@value PodSetCondition#REPLICA_FAILURE} condition it already shows with the same reason
   * is not written: while a PodSet keeps failing, each retry's failure names another pod or answer,
   * and rewriting the condition for that cost one status write per retry (its Events tell each
   * one).
   *
   * @param plan the pass's plan
   * @param failure what failed in this pass, or null
   * @param current the status on the server as far as the caller knows
   * @param computed the status {@link #compute} gave for this pass
   */
  public static boolean writeNow(
      PodSetPlan plan, ReplicaFailure failure, PodSetStatus current, PodSetStatus computed) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(computed, "computed");
    if (computed.equals(current) || onlyFailureMessageChanged(current, computed)) {
      return false;
    }
    return failure != null || !plan.writesPods();
  }

  private static boolean onlyFailureMessageChanged(PodSetStatus current, PodSetStatus computed) {
    Optional<PodSetCondition> shown = current.condition(PodSetCondition.REPLICA_FAILURE);
    Optional<PodSetCondition> now = computed.condition(PodSetCondition.REPLICA_FAILURE);
    return shown.isPresent()
        && now.isPresent()
        && shown.get().isTrue()
        && now.get().isTrue()
        && shown.get().reason().equals(now.get().reason())
        && computed.withCondition(shown.get()).equals(current);
  }

  private static PodSetCondition progressing(int current, int updated, int desired, Instant now) {
    if (current < desired) {
      return PodSetCondition.of(
          PodSetCondition.PROGRESSING,
          PodSetCondition.TRUE,
          "ScalingUp",
          current + " of " + desired + " pods exist",
          now);
    }
    if (current > desired) {
      return PodSetCondition.of(
          PodSetCondition.PROGRESSING,
          PodSetCondition.TRUE,
          "ScalingDown",
          current + " pods exist, " + desired + " wanted",
          now);
    }
    if (updated < desired) {
      return PodSetCondition.of(
          PodSetCondition.PROGRESSING,
          PodSetCondition.TRUE,
          "Updating",
          updated + " of " + desired + " pods on the current template",
          now);
    }
    return PodSetCondition.of(
        PodSetCondition.PROGRESSING,
        PodSetCondition.FALSE,
        "Complete",
        desired + " pods on the current template",
        now);
  }
}
