package io.podset.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.operator.PodSetPlan.ContainerImage;
import io.podset.operator.PodSetPlan.ImageUpdate;
import io.podset.runtime.ownership.OwnerReferences;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what a reconcile of a PodSet does, from the PodSet and its cached pods only: a pure
 * function, without I/O, clocks or randomness, so every rule is unit-tested.
 *
 * <p>The rules, as the ReplicaSet controller's:
 *
 * <ul>
 *   <li>Claim: pods the PodSet controls and that match its selector are its pods; controlled pods
 *       that no longer match are released; orphans (no controller) that match and are not
 *       terminating are adopted. Pods controlled by anything else are ignored. A PodSet being
 *       deleted claims nothing.
 *   <li>Count: terminating pods (with a deletionTimestamp) and finished pods ({@code Succeeded},
 *       {@code Failed}) do not count.
 *   <li>Scale: create the whole shortfall, or delete the whole surplus in {@link PodRanking} order,
 *       each at most the burst limit per pass.
 *   <li>Update, once the count is right: pods not on the current template are brought to it, those
 *       whose template differs by container images alone by a patch in place, others by deletion
 *       (the next pass creates the replacement). Pods that are not available are updated first and
 *       freely; available ones only while at least {@code replicas - maxUnavailable} pods stay
 *       available.
 *   <li>Stale cache: when the caller says the cache is not settled (expectations unmet), the plan
 *       writes nothing.
 * </ul>
 */
public final class PodSetPlanner {

  /** The ReplicaSet controller's burst limit: at most this many creates or deletes per pass. */
  public static final int DEFAULT_BURST = 500;

  private final int burst;

  private PodSetPlanner(int burst) {
    this.burst = burst;
  }

  /** A planner with the default burst limit of {@value #DEFAULT_BURST}. */
  public static PodSetPlanner create() {
    return new PodSetPlanner(DEFAULT_BURST);
  }

  /**
   * A planner creating or deleting at most {@code burst} pods per pass.
   *
   * @throws IllegalArgumentException if {@code burst} is less than 1
   */
  public static PodSetPlanner create(int burst) {
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    return new PodSetPlanner(burst);
  }

  /**
   * Plans a reconcile.
   *
   * @param podSet the PodSet as cached; must have a name, namespace and uid
   * @param pods the cached candidate pods: those the PodSet controls and those carrying its label
   *     (duplicates and pods of other namespaces are ignored)
   * @param settled whether the cache reflects every create and delete this operator sent for the
   *     PodSet (its expectations are satisfied)
   * @throws NullPointerException if an argument, or the PodSet's uid, is null
   */
  public PodSetPlan plan(PodSet podSet, Collection<Pod> pods, boolean settled) {
    Objects.requireNonNull(podSet, "podSet");
    Objects.requireNonNull(pods, "pods");
    String uid = Objects.requireNonNull(podSet.getMetadata().getUid(), "podSet.metadata.uid");
    String name = podSet.getMetadata().getName();
    String namespace = podSet.getMetadata().getNamespace();
    PodSetSpec spec = podSet.getSpec() == null ? PodSetSpec.defaults() : podSet.getSpec();
    PodTemplateSpec template = spec.effectiveTemplate();
    PodTemplateHash hash = PodTemplateHash.of(template);
    Optional<String> problem = PodSetValidation.problem(podSet);
    boolean deleting = podSet.getMetadata().getDeletionTimestamp() != null;
    boolean actionable = settled && !deleting && problem.isEmpty();

    List<Pod> owned = new ArrayList<>();
    List<Pod> adopt = new ArrayList<>();
    List<Pod> release = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Pod pod : pods) {
      Objects.requireNonNull(pod, "pod");
      if (!Objects.equals(namespace, pod.getMetadata().getNamespace())
          || !seen.add(pod.getMetadata().getUid() + "/" + pod.getMetadata().getName())) {
        continue;
      }
      boolean matches = PodSetLabels.matches(pod.getMetadata().getLabels(), name);
      Optional<OwnerReference> controller = OwnerReferences.getControllerOf(pod);
      if (controller.isPresent()) {
        if (!uid.equals(controller.get().getUid())) {
          continue;
        }
        if (matches) {
          owned.add(pod);
        } else if (actionable) {
          release.add(pod);
        }
      } else if (matches && actionable && !Pods.isTerminating(pod)) {
        adopt.add(pod);
        owned.add(pod);
      }
    }
    List<Pod> active = owned.stream().filter(Pods::isActive).toList();
    String problemText = problem.orElse(null);
    if (!actionable) {
      return PodSetPlan.observeOnly(problemText, hash, active);
    }

    int replicas = spec.effectiveReplicas();
    Comparator<Pod> ranking = PodRanking.forDeletion(hash.full());
    int diff = active.size() - replicas;
    if (diff < 0) {
      int create = Math.min(-diff, burst);
      Pod pod = PodTemplates.newPod(podSet, template, hash);
      return PodSetPlan.scaleUp(hash, active, adopt, release, create, pod);
    }
    if (diff > 0) {
      List<Pod> delete = active.stream().sorted(ranking).limit(Math.min(diff, burst)).toList();
      return PodSetPlan.scaleDown(hash, active, adopt, release, delete);
    }
    List<Pod> replace = new ArrayList<>();
    List<ImageUpdate> imageUpdates = new ArrayList<>();
    planUpdate(spec, template, hash, active, ranking, replace, imageUpdates);
    return PodSetPlan.update(hash, active, adopt, release, replace, imageUpdates);
  }

  private static void planUpdate(
      PodSetSpec spec,
      PodTemplateSpec template,
      PodTemplateHash hash,
      List<Pod> active,
      Comparator<Pod> ranking,
      List<Pod> replace,
      List<ImageUpdate> imageUpdates) {
    List<Pod> outdated =
        active.stream()
            .filter(p -> !hash.full().equals(Pods.templateHash(p)))
            .sorted(Comparator.comparing(Pods::isAvailable).thenComparing(ranking))
            .toList();
    if (outdated.isEmpty()) {
      return;
    }
    long available = active.stream().filter(Pods::isAvailable).count();
    long budget = available - (spec.effectiveReplicas() - spec.effectiveMaxUnavailable());
    for (Pod pod : outdated) {
      if (Pods.isAvailable(pod)) {
        if (budget <= 0) {
          break;
        }
        budget--;
      }
      Optional<ImageUpdate> update = imageUpdate(pod, template, hash);
      if (update.isPresent()) {
        imageUpdates.add(update.get());
      } else {
        replace.add(pod);
      }
    }
  }

  /**
   * The in-place update bringing {@code pod} to {@code template}, when the pod was made from a
   * template that differs from it by container images alone (and its containers are still in the
   * template's order).
   */
  static Optional<ImageUpdate> imageUpdate(
      Pod pod, PodTemplateSpec template, PodTemplateHash hash) {
    if (!hash.withoutImages().equals(Pods.templateHashWithoutImages(pod))
        || pod.getSpec() == null
        || pod.getSpec().getContainers() == null) {
      return Optional.empty();
    }
    List<Container> wanted = template.getSpec().getContainers();
    List<Container> actual = pod.getSpec().getContainers();
    if (wanted.size() != actual.size()) {
      return Optional.empty();
    }
    List<ContainerImage> changes = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      Container want = wanted.get(i);
      Container have = actual.get(i);
      if (!Objects.equals(want.getName(), have.getName())) {
        return Optional.empty();
      }
      if (!Objects.equals(want.getImage(), have.getImage())) {
        changes.add(new ContainerImage(i, want.getName(), want.getImage()));
      }
    }
    return Optional.of(new ImageUpdate(pod, changes));
  }
}
