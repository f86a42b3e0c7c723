package io.podset.operator;

import static io.podset.operator.TestObjects.T0;
import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static io.podset.operator.TestObjects.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodSetStatusesTest {

  private final PodSetPlanner planner = PodSetPlanner.create();

  private PodSetStatus status(PodSet podSet, List<Pod> pods, ReplicaFailure failure, Instant now) {
    return PodSetStatuses.compute(podSet, planner.plan(podSet, pods, true), failure, now);
  }

  @Test
  void compute_countsNamesSelectorAndGeneration() {
    PodSet podSet = podSet(3);
    podSet.getMetadata().setGeneration(4L);
    List<Pod> pods =
        List.of(
            podOf(podSet, "web-b").build(),
            podOf(podSet, "web-a").notReady().build(),
            podOf(podSet, "web-c").terminating().build());

    PodSetStatus status = status(podSet, pods, null, T0);

    assertThat(status.replicas()).isEqualTo(2);
    assertThat(status.readyReplicas()).isEqualTo(1);
    assertThat(status.availableReplicas()).isEqualTo(1);
    assertThat(status.updatedReplicas()).isEqualTo(2);
    assertThat(status.podNames()).containsExactly("web-a", "web-b");
    assertThat(status.observedGeneration()).isEqualTo(4);
    assertThat(status.selector()).isEqualTo("app.example.com/podset=web");
    assertThat(status.condition(PodSetCondition.AVAILABLE).orElseThrow())
        .isEqualTo(
            new PodSetCondition(
                "Available",
                "False",
                "ReplicasUnavailable",
                "1 of 3 pods available",
                T0.toString()));
    assertThat(status.condition(PodSetCondition.PROGRESSING).orElseThrow())
        .isEqualTo(
            new PodSetCondition(
                "Progressing", "True", "ScalingUp", "2 of 3 pods exist", T0.toString()));
    assertThat(status.condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
  }

  @Test
  void compute_settled_availableAndComplete() {
    PodSet podSet = podSet(2);

    PodSetStatus status =
        status(podSet, List.of(podOf(podSet, "a").build(), podOf(podSet, "b").build()), null, T0);

    assertThat(status.condition(PodSetCondition.AVAILABLE).orElseThrow().reason())
        .isEqualTo("AllReplicasAvailable");
    PodSetCondition progressing = status.condition(PodSetCondition.PROGRESSING).orElseThrow();
    assertThat(progressing.status()).isEqualTo("False");
    assertThat(progressing.reason()).isEqualTo("Complete");
  }

  @Test
  void compute_again_fromTheWrittenStatus_isEqual() {
    PodSet podSet = podSet(2);
    List<Pod> pods = List.of(podOf(podSet, "a").build(), podOf(podSet, "b").build());
    PodSetStatus first = status(podSet, pods, null, T0);
    podSet.setStatus(first);

    PodSetStatus second = status(podSet, pods, null, T0.plusSeconds(3600));

    assertThat(second).isEqualTo(first);
  }

  @Test
  void compute_conditionChange_keepsTransitionTimeOfUnchangedConditions() {
    PodSet podSet = podSet(2);
    podSet.setStatus(status(podSet, List.of(), null, T0));
    List<Pod> one = List.of(podOf(podSet, "a").build());

    PodSetStatus later = status(podSet, one, null, T0.plusSeconds(60));

    PodSetCondition progressing = later.condition(PodSetCondition.PROGRESSING).orElseThrow();
    assertThat(progressing.message()).isEqualTo("1 of 2 pods exist");
    assertThat(progressing.lastTransitionTime()).isEqualTo(T0.toString());
  }

  @Test
  void compute_scalingDownAndUpdating_reasons() {
    PodSet podSet = podSet(1);
    List<Pod> two = List.of(podOf(podSet, "a").build(), podOf(podSet, "b").build());
    assertThat(status(podSet, two, null, T0).condition(PodSetCondition.PROGRESSING).orElseThrow())
        .extracting(PodSetCondition::reason, PodSetCondition::message)
        .containsExactly("ScalingDown", "2 pods exist, 1 wanted");

    PodSet updated = podSet(PodSetSpec.ofReplicas(1).withTemplate(template("nginx:2")));
    assertThat(
            status(updated, List.of(podOf(podSet, "a").build()), null, T0)
                .condition(PodSetCondition.PROGRESSING)
                .orElseThrow())
        .extracting(PodSetCondition::reason, PodSetCondition::message)
        .containsExactly("Updating", "0 of 1 pods on the current template");
  }

  @Test
  void compute_failure_setsReplicaFailureThenClearsIt() {
    PodSet podSet = podSet(1);
    ReplicaFailure failure =
        new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "pods \"web-\" is forbidden: quota");

    PodSetStatus failed = status(podSet, List.of(), failure, T0);

    assertThat(failed.condition(PodSetCondition.REPLICA_FAILURE).orElseThrow())
        .isEqualTo(
            new PodSetCondition(
                "ReplicaFailure",
                "True",
                "FailedCreate",
                "pods \"web-\" is forbidden: quota",
                T0.toString()));

    podSet.setStatus(failed);
    PodSetStatus recovered = status(podSet, List.of(podOf(podSet, "a").build()), null, T0);
    assertThat(recovered.condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
  }

  @Test
  void compute_zeroReplicas_availableTrue() {
    PodSetStatus status = status(podSet(0), List.of(), null, T0);

    assertThat(status.condition(PodSetCondition.AVAILABLE).orElseThrow().isTrue()).isTrue();
    assertThat(status.replicas()).isZero();
  }

  @Test
  void writeNow_passThatCreatesPods_defersToTheNextPass() {
    PodSet podSet = podSet(3);
    PodSetPlan plan = planner.plan(podSet, List.of(), true);
    PodSetStatus computed = PodSetStatuses.compute(podSet, plan, null, T0);

    assertThat(plan.writesPods()).isTrue();
    assertThat(PodSetStatuses.writeNow(plan, null, PodSetStatus.empty(), computed)).isFalse();
  }

  @Test
  void writeNow_passThatFailed_writesAtOnce() {
    PodSet podSet = podSet(3);
    PodSetPlan plan = planner.plan(podSet, List.of(), true);
    ReplicaFailure failure = new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "quota");
    PodSetStatus computed = PodSetStatuses.compute(podSet, plan, failure, T0);

    assertThat(PodSetStatuses.writeNow(plan, failure, PodSetStatus.empty(), computed)).isTrue();
  }

  @Test
  void writeNow_passWithoutPodWrites_writesWhatChanged_only() {
    PodSet podSet = podSet(1);
    PodSetPlan plan = planner.plan(podSet, List.of(podOf(podSet, "web-a").build()), true);
    PodSetStatus computed = PodSetStatuses.compute(podSet, plan, null, T0);

    assertThat(plan.writesPods()).isFalse();
    assertThat(PodSetStatuses.writeNow(plan, null, PodSetStatus.empty(), computed)).isTrue();
    assertThat(PodSetStatuses.writeNow(plan, null, computed, computed)).isFalse();
  }

  @Test
  void writeNow_failingAgainForTheSameReason_onlyTheMessageChanged_writesNothing() {
    PodSet podSet = podSet(3);
    PodSetPlan plan = planner.plan(podSet, List.of(), true);
    ReplicaFailure first =
        new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "cannot create pods: slow down (429)");
    PodSetStatus shown = PodSetStatuses.compute(podSet, plan, first, T0);
    ReplicaFailure again =
        new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "cannot create pods: etcd (HTTP 500)");

    PodSetStatus computed = PodSetStatuses.compute(podSet, shown, plan, again, T0.plusSeconds(3));

    assertThat(computed).isNotEqualTo(shown);
    assertThat(PodSetStatuses.writeNow(plan, again, shown, computed)).isFalse();
  }

  @Test
  void writeNow_failingForAnotherReason_orWithOtherCounts_writes() {
    PodSet podSet = podSet(3);
    PodSetPlan none = planner.plan(podSet, List.of(), true);
    ReplicaFailure create = new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "slow down");
    PodSetStatus shown = PodSetStatuses.compute(podSet, none, create, T0);
    ReplicaFailure delete = new ReplicaFailure(ReplicaFailure.FAILED_DELETE, "slow down");
    PodSetStatus otherReason = PodSetStatuses.compute(podSet, shown, none, delete, T0);
    PodSetPlan one = planner.plan(podSet, List.of(podOf(podSet, "web-a").build()), true);
    ReplicaFailure again = new ReplicaFailure(ReplicaFailure.FAILED_CREATE, "etcd");
    PodSetStatus otherCount = PodSetStatuses.compute(podSet, shown, one, again, T0);

    assertThat(PodSetStatuses.writeNow(none, delete, shown, otherReason)).isTrue();
    assertThat(PodSetStatuses.writeNow(one, again, shown, otherCount)).isTrue();
  }
}
