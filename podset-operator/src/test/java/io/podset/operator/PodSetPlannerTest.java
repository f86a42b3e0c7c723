package io.podset.operator;

import static io.podset.operator.TestObjects.NAMESPACE;
import static io.podset.operator.TestObjects.T0;
import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static io.podset.operator.TestObjects.template;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetUpdateStrategy;
import io.podset.operator.PodSetPlan.ContainerImage;
import io.podset.runtime.ownership.OwnerReferences;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PodSetPlannerTest {

  private final PodSetPlanner planner = PodSetPlanner.create();

  private static List<Pod> pods(PodSet podSet, int count) {
    return IntStream.range(0, count).mapToObj(i -> podOf(podSet, "web-" + i).build()).toList();
  }

  private static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).toList();
  }

  private static PodSet withTemplate(int replicas, String image, int maxUnavailable) {
    return podSet(
        PodSetSpec.ofReplicas(replicas)
            .withTemplate(template(image))
            .withUpdateStrategy(PodSetUpdateStrategy.ofMaxUnavailable(maxUnavailable)));
  }

  @Test
  void plan_noPods_createsTheWholeShortfall() {
    PodSet podSet = podSet(3);

    PodSetPlan plan = planner.plan(podSet, List.of(), true);

    assertThat(plan.create()).isEqualTo(3);
    assertThat(plan.delete()).isEmpty();
    assertThat(plan.actionable()).isTrue();
    Pod pod = plan.podToCreate();
    assertThat(pod.getMetadata().getGenerateName()).isEqualTo("web-");
    assertThat(pod.getMetadata().getLabels())
        .containsEntry(PodSetLabels.PODSET, "web")
        .containsEntry(PodSetLabels.TEMPLATE_HASH, plan.templateHash().full());
    assertThat(OwnerReferences.isControlledBy(pod, podSet)).isTrue();
  }

  @Test
  void plan_shortfallAboveBurst_createsTheBurstLimit() {
    PodSetPlan plan = PodSetPlanner.create(500).plan(podSet(2000), List.of(), true);

    assertThat(plan.create()).isEqualTo(500);
  }

  @Test
  void plan_partialShortfall_createsTheDifference() {
    PodSet podSet = podSet(10);

    PodSetPlan plan = planner.plan(podSet, pods(podSet, 3), true);

    assertThat(plan.create()).isEqualTo(7);
    assertThat(plan.active()).hasSize(3);
  }

  @Test
  void plan_surplus_deletesExactlyTheSurplusInRankOrder() {
    PodSet podSet = podSet(2);
    List<Pod> pods = new ArrayList<>(pods(podSet, 3));
    pods.add(podOf(podSet, "web-unscheduled").unscheduled().build());
    pods.add(podOf(podSet, "web-pending").phase("Pending").notReady().build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(plan.create()).isZero();
    assertThat(names(plan.delete())).containsExactly("web-unscheduled", "web-pending", "web-0");
  }

  @Test
  void plan_surplusAboveBurst_deletesTheBurstLimit() {
    PodSet podSet = podSet(0);

    PodSetPlan plan = PodSetPlanner.create(4).plan(podSet, pods(podSet, 10), true);

    assertThat(plan.delete()).hasSize(4);
  }

  @Test
  void plan_exactCountOnCurrentTemplate_doesNothing() {
    PodSet podSet = podSet(3);

    PodSetPlan plan = planner.plan(podSet, pods(podSet, 3), true);

    assertThat(plan.writesPods()).isFalse();
    assertThat(plan.active()).hasSize(3);
  }

  @Test
  void plan_terminatingPods_doNotCountAndAreReplaced() {
    PodSet podSet = podSet(3);
    List<Pod> pods = new ArrayList<>(pods(podSet, 2));
    pods.add(podOf(podSet, "web-going").terminating().build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(plan.create()).isEqualTo(1);
    assertThat(names(plan.active())).containsExactly("web-0", "web-1");
  }

  @Test
  void plan_finishedPods_doNotCount() {
    PodSet podSet = podSet(2);
    List<Pod> pods = new ArrayList<>(pods(podSet, 1));
    pods.add(podOf(podSet, "web-done").phase("Succeeded").notReady().build());
    pods.add(podOf(podSet, "web-failed").phase("Failed").notReady().build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(plan.create()).isEqualTo(1);
    assertThat(plan.delete()).isEmpty();
  }

  @Test
  void plan_notSettled_writesNothingAndCountsOnlyOwnedPods() {
    PodSet podSet = podSet(5);
    List<Pod> pods = new ArrayList<>(pods(podSet, 2));
    pods.add(podOf(podSet, "orphan").orphan().build());

    PodSetPlan plan = planner.plan(podSet, pods, false);

    assertThat(plan.actionable()).isFalse();
    assertThat(plan.writesPods()).isFalse();
    assertThat(plan.create()).isZero();
    assertThat(names(plan.active())).containsExactly("web-0", "web-1");
  }

  @Test
  void plan_matchingOrphan_isAdoptedAndCounted() {
    PodSet podSet = podSet(2);
    List<Pod> pods = new ArrayList<>(pods(podSet, 1));
    pods.add(podOf(podSet, "orphan").orphan().build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(names(plan.adopt())).containsExactly("orphan");
    assertThat(plan.active()).hasSize(2);
    assertThat(plan.create()).isZero();
  }

  @Test
  void plan_terminatingOrphan_isNotAdopted() {
    PodSet podSet = podSet(1);

    PodSetPlan plan =
        planner.plan(podSet, List.of(podOf(podSet, "orphan").orphan().terminating().build()), true);

    assertThat(plan.adopt()).isEmpty();
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_orphanWithoutTheLabel_isIgnored() {
    PodSet podSet = podSet(1);
    Pod stranger = podOf(podSet, "stranger").orphan().label(PodSetLabels.PODSET, "other").build();

    PodSetPlan plan = planner.plan(podSet, List.of(stranger), true);

    assertThat(plan.adopt()).isEmpty();
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_ownedPodThatNoLongerMatches_isReleasedAndNotCounted() {
    PodSet podSet = podSet(2);
    List<Pod> pods = new ArrayList<>(pods(podSet, 2));
    pods.set(1, podOf(podSet, "web-1").label(PodSetLabels.PODSET, "debug").build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(names(plan.release())).containsExactly("web-1");
    assertThat(names(plan.active())).containsExactly("web-0");
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_podOfAnotherController_isIgnoredEvenWithTheLabel() {
    PodSet podSet = podSet(1);
    Pod foreign = podOf(podSet, "foreign").controlledBy("ReplicaSet", "rs", "uid-rs").build();

    PodSetPlan plan = planner.plan(podSet, List.of(foreign), true);

    assertThat(plan.active()).isEmpty();
    assertThat(plan.adopt()).isEmpty();
    assertThat(plan.release()).isEmpty();
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_podInAnotherNamespace_isIgnored() {
    PodSet podSet = podSet(1);
    Pod elsewhere = podOf(podSet, "web-0").build();
    elsewhere.getMetadata().setNamespace("other");

    PodSetPlan plan = planner.plan(podSet, List.of(elsewhere), true);

    assertThat(plan.active()).isEmpty();
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_duplicateCandidates_countOnce() {
    PodSet podSet = podSet(2);
    Pod pod = podOf(podSet, "web-0").build();

    PodSetPlan plan = planner.plan(podSet, List.of(pod, pod), true);

    assertThat(plan.active()).hasSize(1);
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void plan_podSetBeingDeleted_writesNothing() {
    PodSet podSet = podSet(3);
    podSet.getMetadata().setDeletionTimestamp(T0.toString());
    List<Pod> pods = new ArrayList<>(pods(podSet, 1));
    pods.add(podOf(podSet, "orphan").orphan().build());

    PodSetPlan plan = planner.plan(podSet, pods, true);

    assertThat(plan.actionable()).isFalse();
    assertThat(plan.writesPods()).isFalse();
    assertThat(plan.active()).hasSize(1);
  }

  @Test
  void plan_invalidSpec_reportsTheProblemAndWritesNothing() {
    PodSet podSet = podSet(PodSetSpec.ofReplicas(2).withTemplate(template("nginx")));
    podSet.getSpec().template().getSpec().setContainers(new ArrayList<>());

    PodSetPlan plan = planner.plan(podSet, List.of(), true);

    assertThat(plan.problemMessage())
        .contains("spec.template.spec.containers must list at least one container, got none");
    assertThat(plan.writesPods()).isFalse();
  }

  @Test
  void plan_podSetWithoutUid_isRejected() {
    PodSet podSet = podSet(1);
    podSet.getMetadata().setUid(null);

    assertThatThrownBy(() -> planner.plan(podSet, List.of(), true))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("podSet.metadata.uid");
  }

  @Test
  void create_burstBelowOne_isRejected() {
    assertThatThrownBy(() -> PodSetPlanner.create(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst must be at least 1, got 0");
  }

  @Test
  void plan_imageChange_patchesAtMostMaxUnavailableReadyPods() {
    PodSet old = withTemplate(3, "nginx:1.25", 1);
    List<Pod> pods = pods(old, 3);
    PodSet current = withTemplate(3, "nginx:1.26", 1);

    PodSetPlan plan = planner.plan(current, pods, true);

    assertThat(plan.imageUpdates()).hasSize(1);
    assertThat(plan.imageUpdates().get(0).changes())
        .containsExactly(new ContainerImage(0, "app", "nginx:1.26"));
    assertThat(plan.replace()).isEmpty();
    assertThat(plan.create()).isZero();
  }

  @Test
  void plan_imageChangeWithMaxUnavailableTwo_patchesTwo() {
    PodSet old = withTemplate(3, "nginx:1.25", 2);
    PodSet current = withTemplate(3, "nginx:1.26", 2);

    PodSetPlan plan = planner.plan(current, pods(old, 3), true);

    assertThat(plan.imageUpdates()).hasSize(2);
  }

  @Test
  void plan_imageChange_patchesNotReadyPodsFirstAndWithoutBudget() {
    PodSet old = withTemplate(4, "nginx:1.25", 1);
    List<Pod> pods = new ArrayList<>(pods(old, 2));
    pods.add(podOf(old, "web-sick-1").notReady().build());
    pods.add(podOf(old, "web-sick-2").notReady().build());
    PodSet current = withTemplate(4, "nginx:1.26", 1);

    PodSetPlan plan = planner.plan(current, pods, true);

    // 2 of 4 available, 4 - 1 = 3 must stay available: no budget for ready pods.
    assertThat(plan.imageUpdates().stream().map(u -> u.pod().getMetadata().getName()))
        .containsExactlyInAnyOrder("web-sick-1", "web-sick-2");
  }

  @Test
  void plan_imageChange_waitsWhileAPatchedPodStillRunsTheOldImage() {
    PodSet old = withTemplate(3, "nginx:1.25", 1);
    PodSet current = withTemplate(3, "nginx:1.26", 1);
    List<Pod> pods = new ArrayList<>(pods(old, 2));
    // Patched to 1.26 (current hash), kubelet has not restarted it yet: still Ready on 1.25.
    pods.add(podOf(current, "web-patched").statusImage("docker.io/library/nginx:1.25").build());

    PodSetPlan plan = planner.plan(current, pods, true);

    assertThat(plan.imageUpdates()).isEmpty();
  }

  @Test
  void plan_imageChange_continuesOnceThePatchedPodRunsTheNewImage() {
    PodSet old = withTemplate(3, "nginx:1.25", 1);
    PodSet current = withTemplate(3, "nginx:1.26", 1);
    List<Pod> pods = new ArrayList<>(pods(old, 2));
    pods.add(podOf(current, "web-patched").statusImage("docker.io/library/nginx:1.26").build());

    PodSetPlan plan = planner.plan(current, pods, true);

    assertThat(plan.imageUpdates()).hasSize(1);
  }

  @Test
  void plan_otherTemplateChange_replacesWithinTheBudget() {
    PodSet old = withTemplate(3, "nginx:1.25", 1);
    PodSet current = withTemplate(3, "nginx:1.25", 1);
    current.getSpec().template().getMetadata().getLabels().put("tier", "frontend");

    PodSetPlan plan = planner.plan(current, pods(old, 3), true);

    assertThat(plan.replace()).hasSize(1);
    assertThat(plan.imageUpdates()).isEmpty();
    assertThat(plan.create()).isZero();
  }

  @Test
  void plan_commandChangeWithImageChange_replacesInsteadOfPatching() {
    PodSet old = withTemplate(2, "nginx:1.25", 2);
    PodSet current = withTemplate(2, "nginx:1.26", 2);
    current.getSpec().template().getSpec().getContainers().get(0).setCommand(List.of("sh"));

    PodSetPlan plan = planner.plan(current, pods(old, 2), true);

    assertThat(plan.replace()).hasSize(2);
    assertThat(plan.imageUpdates()).isEmpty();
  }

  @Test
  void plan_adoptedPodWithoutHashes_isReplaced() {
    PodSet podSet = withTemplate(1, "nginx:1.25", 1);
    Pod orphan = podOf(podSet, "handmade").orphan().label(PodSetLabels.TEMPLATE_HASH, null).build();
    orphan.getMetadata().getAnnotations().clear();

    PodSetPlan adopting = planner.plan(podSet, List.of(orphan), true);

    assertThat(adopting.adopt()).hasSize(1);
    assertThat(adopting.replace()).hasSize(1);
  }

  @Test
  void plan_scaleChangeWithTemplateChange_scalesFirst() {
    PodSet old = withTemplate(2, "nginx:1.25", 1);
    PodSet current = withTemplate(4, "nginx:1.26", 1);

    PodSetPlan plan = planner.plan(current, pods(old, 2), true);

    assertThat(plan.create()).isEqualTo(2);
    assertThat(plan.imageUpdates()).isEmpty();
    assertThat(plan.podToCreate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.26");
  }

  @Test
  void plan_scaleDownDuringUpdate_deletesOutdatedPodsFirst() {
    PodSet old = withTemplate(3, "nginx:1.25", 1);
    PodSet current = withTemplate(2, "nginx:1.26", 1);
    List<Pod> pods = new ArrayList<>();
    pods.add(podOf(current, "web-new-1").created(T0).build());
    pods.add(podOf(current, "web-new-2").created(T0).build());
    pods.add(podOf(old, "web-old").created(T0.minusSeconds(600)).build());

    PodSetPlan plan = planner.plan(current, pods, true);

    assertThat(names(plan.delete())).containsExactly("web-old");
  }

  @Test
  void plan_allPodsCurrent_noUpdate() {
    PodSet podSet = withTemplate(3, "nginx:1.26", 1);

    PodSetPlan plan = planner.plan(podSet, pods(podSet, 3), true);

    assertThat(plan.writesPods()).isFalse();
  }

  @Test
  void plan_inputsAreNotModified() {
    PodSet podSet = podSet(1);
    Pod orphan = podOf(podSet, "orphan").orphan().build();

    planner.plan(podSet, List.of(orphan), true);

    assertThat(orphan.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(podSet.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
  }
}
