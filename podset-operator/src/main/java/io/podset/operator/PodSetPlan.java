package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one reconcile of a PodSet should do to its pods, decided by {@link PodSetPlanner} from the
 * PodSet and the cached pods alone. Carried out in this order: adopt, release, delete, replace,
 * update images, create.
 *
 * @param problem why the PodSet cannot be reconciled as written (then nothing is written but the
 *     status), or null
 * @param actionable whether the plan may write pods: false while the cache may be stale
 *     (expectations unmet), while the PodSet is being deleted, or when {@code problem} is set
 * @param templateHash the hashes of the PodSet's current template
 * @param active the pods counted in the status: controlled by the PodSet (or adopted by this plan),
 *     matching its selector, neither terminating nor finished
 * @param adopt orphans matching the selector, to be given the PodSet as controller
 * @param release pods the PodSet controls that no longer match its selector, to be let go
 * @param create how many pods to create, at most the burst limit
 * @param podToCreate the pod to create {@code create} times (server-generated names), or null when
 *     {@code create} is 0
 * @param delete surplus pods to delete, in rank order (see {@link PodRanking})
 * @param replace pods on an outdated template that cannot be patched, to be deleted now and
 *     re-created from the current template by a later pass
 * @param imageUpdates pods whose template differs only by container images, to be patched in place
 */
public record PodSetPlan(
    String problem,
    boolean actionable,
    PodTemplateHash templateHash,
    List<Pod> active,
    List<Pod> adopt,
    List<Pod> release,
    int create,
    Pod podToCreate,
    List<Pod> delete,
    List<Pod> replace,
    List<ImageUpdate> imageUpdates) {

  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException if {@code create} is negative, or positive without a pod to
   *     create, or if a plan with a problem has actions
   */
  public PodSetPlan {
    Objects.requireNonNull(templateHash, "templateHash");
    active = List.copyOf(active);
    adopt = List.copyOf(adopt);
    release = List.copyOf(release);
    delete = List.copyOf(delete);
    replace = List.copyOf(replace);
    imageUpdates = List.copyOf(imageUpdates);
    if (create < 0 || (create > 0 && podToCreate == null)) {
      throw new IllegalArgumentException(
          "create must be 0, or positive with a podToCreate, got " + create);
    }
    boolean hasActions =
        !adopt.isEmpty()
            || !release.isEmpty()
            || create > 0
            || !delete.isEmpty()
            || !replace.isEmpty()
            || !imageUpdates.isEmpty();
    if (hasActions && !actionable) {
      throw new IllegalArgumentException("a plan that is not actionable must have no actions");
    }
  }

  /**
   * A plan that writes no pod: the cache may be stale, the PodSet is being deleted, or {@code
   * problem} (nullable) makes it unworkable. Only the status is computed, from {@code active}.
   */
  static PodSetPlan observeOnly(String problem, PodTemplateHash templateHash, List<Pod> active) {
    return new PodSetPlan(
        problem,
        false,
        templateHash,
        active,
        List.of(),
        List.of(),
        0,
        null,
        List.of(),
        List.of(),
        List.of());
  }

  /** Adopts and releases, then creates {@code create} copies of {@code podToCreate}. */
  static PodSetPlan scaleUp(
      PodTemplateHash templateHash,
      List<Pod> active,
      List<Pod> adopt,
      List<Pod> release,
      int create,
      Pod podToCreate) {
    Objects.requireNonNull(podToCreate, "podToCreate");
    return new PodSetPlan(
        null,
        true,
        templateHash,
        active,
        adopt,
        release,
        create,
        podToCreate,
        List.of(),
        List.of(),
        List.of());
  }

  /** Adopts and releases, then deletes {@code delete}, in that order. */
  static PodSetPlan scaleDown(
      PodTemplateHash templateHash,
      List<Pod> active,
      List<Pod> adopt,
      List<Pod> release,
      List<Pod> delete) {
    return new PodSetPlan(
        null, true, templateHash, active, adopt, release, 0, null, delete, List.of(), List.of());
  }

  /** Adopts and releases at the right count, then replaces and patches outdated pods. */
  static PodSetPlan update(
      PodTemplateHash templateHash,
      List<Pod> active,
      List<Pod> adopt,
      List<Pod> release,
      List<Pod> replace,
      List<ImageUpdate> imageUpdates) {
    return new PodSetPlan(
        null,
        true,
        templateHash,
        active,
        adopt,
        release,
        0,
        null,
        List.of(),
        replace,
        imageUpdates);
  }

  /** The problem that makes the PodSet unworkable, if any. */
  public Optional<String> problemMessage() {
    return Optional.ofNullable(problem);
  }

  /** Whether the plan writes any pod. */
  public boolean writesPods() {
    return !adopt.isEmpty()
        || !release.isEmpty()
        || create > 0
        || !delete.isEmpty()
        || !replace.isEmpty()
        || !imageUpdates.isEmpty();
  }

  /**
   * A pod to bring to the current template by patching container images in place.
   *
   * @param pod the pod as cached
   * @param changes the containers whose image changes, with their index in {@code spec.containers}
   */
  public record ImageUpdate(Pod pod, List<ContainerImage> changes) {

    /** Copies {@code changes}. */
    public ImageUpdate {
      Objects.requireNonNull(pod, "pod");
      changes = List.copyOf(changes);
    }
  }

  /**
   * A container's new image.
   *
   * @param index the container's position in {@code spec.containers}
   * @param name the container's name (checked by the patch, so a reordered pod is not changed)
   * @param image the new image
   */
  public record ContainerImage(int index, String name, String image) {

    /**
     * @throws IllegalArgumentException if {@code index} is negative
     */
    public ContainerImage {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(image, "image");
      if (index < 0) {
        throw new IllegalArgumentException("index must not be negative, got " + index);
      }
    }
  }
}
