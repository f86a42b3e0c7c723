package io.podset.operator;

import static io.podset.operator.TestObjects.T0;
import static io.podset.operator.TestObjects.podOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.runtime.informer.Projections;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link PodSetController#POD_FIELDS} against what the operator reads from cached pods: on pods
 * that differ in every field it reads, each decision (the per-pod readings, the deletion ranking,
 * the plans, the statuses and the patches built from cached pods) is the same from the projected
 * pods as from the whole ones, and leaving out any one of the fields changes some decision. A new
 * read of a pod field the projection drops fails here (and in the reconciler's tests, whose caches
 * hold projected pods); a field listed but no longer read fails too.
 */
class PodFieldsTest {

  private static final PodSet CURRENT =
      TestObjects.podSet(PodSetSpec.ofReplicas(3).withTemplate(TestObjects.template("nginx:2")));
  private static final PodSet OLD =
      TestObjects.podSet(PodSetSpec.ofReplicas(3).withTemplate(TestObjects.template("nginx:1")));

  /** Pods of the PodSet, each unlike the others in some field the operator reads. */
  private static List<Pod> pods() {
    return List.of(
        podOf(CURRENT, "ready").build(),
        podOf(CURRENT, "not-ready").notReady().created(T0.plusSeconds(10)).build(),
        podOf(CURRENT, "unscheduled").unscheduled().build(),
        podOf(CURRENT, "restarting").restarts(4).build(),
        podOf(CURRENT, "old-image-running").statusImage("nginx:1").build(),
        podOf(CURRENT, "terminating").terminating().build(),
        podOf(CURRENT, "succeeded").phase("Succeeded").build(),
        podOf(CURRENT, "unknown").phase("Unknown").build(),
        podOf(CURRENT, "ready-later").ready(true, T0.plusSeconds(20)).build(),
        podOf(CURRENT, "orphan").orphan().build(),
        podOf(CURRENT, "foreign").controlledBy("ReplicaSet", "rs", "uid-rs").build(),
        podOf(CURRENT, "unlabelled").label(PodSetLabels.PODSET, null).build(),
        podOf(OLD, "old-template").build(),
        // A container of another name than the template's: not patchable in place.
        renamed(podOf(OLD, "old-template-other-container-name").build()));
  }

  private static Pod renamed(Pod pod) {
    pod.getSpec().getContainers().get(0).setName("other");
    return pod;
  }

  private static String decisions(
      UnaryOperator<io.fabric8.kubernetes.api.model.HasMetadata> cache) {
    List<Pod> pods = new ArrayList<>();
    for (Pod pod : pods()) {
      pods.add((Pod) cache.apply(pod));
    }
    StringBuilder out = new StringBuilder();
    for (Pod pod : pods) {
      out.append(pod.getMetadata().getName())
          .append(' ')
          .append(
              List.of(
                  Pods.isTerminating(pod),
                  Pods.isFinished(pod),
                  Pods.isActive(pod),
                  Pods.isScheduled(pod),
                  Pods.phaseRank(pod),
                  Pods.isReady(pod),
                  String.valueOf(Pods.readySince(pod)),
                  Pods.restarts(pod),
                  String.valueOf(Pods.createdAt(pod)),
                  Pods.runsSpecImages(pod),
                  Pods.isAvailable(pod),
                  String.valueOf(Pods.templateHash(pod)),
                  String.valueOf(Pods.templateHashWithoutImages(pod)),
                  PodEvents.podSetOf(pod).toString()))
          .append('\n');
    }
    List<Pod> ranked = new ArrayList<>(pods);
    ranked.sort(PodRanking.forDeletion(PodTemplateHash.of(template(CURRENT)).full()));
    out.append("ranked ").append(names(ranked)).append('\n');
    // Scaling down and up with every pod, and a rollout with the pods on the old template.
    List<Pod> rollout =
        pods.stream()
            .filter(p -> p.getMetadata().getName().matches("ready|old-template.*"))
            .toList();
    planAll(out, pods, 1);
    planAll(out, pods, 3);
    planAll(out, pods, 20);
    planAll(out, rollout, 3);

    return out.toString();
  }

  @Test
  void projectedPods_giveTheSameDecisionsAsWholeOnes() {
    String whole = decisions(UnaryOperator.identity());

    assertThat(decisions(PodSetController.POD_PROJECTION)).isEqualTo(whole);
    // The pods do exercise the decisions: an image update, an adoption, a release, deletions.
    assertThat(whole)
        .contains("update old-template", "adopt [", "release [", "delete [unscheduled");
  }

  @Test
  void everyListedField_changesSomeDecision_whenLeftOut() {
    String whole = decisions(UnaryOperator.identity());
    for (String field : PodSetController.POD_FIELDS) {
      List<String> without = new ArrayList<>(PodSetController.POD_FIELDS);
      without.remove(field);

      String decisions = decisions(Projections.keep(Pod.class, without));

      assertThat(decisions).as("decisions without " + field).isNotEqualTo(whole);
    }
  }

  private static void planAll(StringBuilder out, List<Pod> pods, int replicas) {
    PodSet podSet = TestObjects.podSet(CURRENT.getSpec().withReplicas(replicas));
    PodSetPlan plan = PodSetPlanner.create().plan(podSet, pods, true);
    out.append("plan ")
        .append(replicas)
        .append(": active ")
        .append(names(plan.active()))
        .append(" adopt ")
        .append(names(plan.adopt()))
        .append(" release ")
        .append(names(plan.release()))
        .append(" create ")
        .append(plan.create())
        .append(" delete ")
        .append(names(plan.delete()))
        .append(" replace ")
        .append(names(plan.replace()))
        .append('\n');
    for (PodSetPlan.ImageUpdate update : plan.imageUpdates()) {
      out.append("  update ")
          .append(update.pod().getMetadata().getName())
          .append(update.changes())
          .append(' ')
          .append(PodPatches.updateImages(update, plan.templateHash().full()))
          .append('\n');
    }
    for (Pod pod : plan.adopt()) {
      out.append("  adopt ").append(PodPatches.adopt(pod, podSet)).append('\n');
    }
    for (Pod pod : plan.release()) {
      out.append("  release ").append(PodPatches.release(pod, podSet)).append('\n');
    }
    out.append("  status ")
        .append(Serialization.asJson(PodSetStatuses.compute(podSet, plan, null, T0)))
        .append('\n');
  }

  private static io.fabric8.kubernetes.api.model.PodTemplateSpec template(PodSet podSet) {
    return podSet.getSpec().effectiveTemplate();
  }

  private static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).toList();
  }
}
