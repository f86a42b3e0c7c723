package io.podset.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Facts about one pod that the planner decides on. Pure functions of the pod; never mutate it. */
final class Pods {

  private Pods() {}

  /** The pod has a deletionTimestamp: it is going away and no longer counts. */
  static boolean isTerminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  /** The pod ended ({@code Succeeded} or {@code Failed}): it no longer counts. */
  static boolean isFinished(Pod pod) {
    String phase = phase(pod);
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** Counts toward the PodSet's replicas: neither terminating nor finished. */
  static boolean isActive(Pod pod) {
    return !isTerminating(pod) && !isFinished(pod);
  }

  /** A node was assigned. */
  static boolean isScheduled(Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node != null && !node.isEmpty();
  }

  /** Pending (or no phase yet) 0, Unknown 1, Running 2: the ReplicaSet controller's order. */
  static int phaseRank(Pod pod) {
    String phase = phase(pod);
    if ("Running".equals(phase)) {
      return 2;
    }
    return "Unknown".equals(phase) ? 1 : 0;
  }

  /** The Ready condition is True. */
  static boolean isReady(Pod pod) {
    PodCondition ready = readyCondition(pod);
    return ready != null && "True".equals(ready.getStatus());
  }

  /** When a ready pod became ready, or null when not ready or unknown. */
  static Instant readySince(Pod pod) {
    PodCondition ready = readyCondition(pod);
    if (ready == null || !"True".equals(ready.getStatus())) {
      return null;
    }
    return parseTime(ready.getLastTransitionTime());
  }

  /** The largest restart count of the pod's containers (0 when none reported). */
  static int restarts(Pod pod) {
    int max = 0;
    for (ContainerStatus status : containerStatuses(pod)) {
      if (status.getRestartCount() != null) {
        max = Math.max(max, status.getRestartCount());
      }
    }
    return max;
  }

  /** The creation time, or null when not set (a pod not yet stored). */
  static Instant createdAt(Pod pod) {
    return parseTime(pod.getMetadata().getCreationTimestamp());
  }

  /**
   * Whether every container the kubelet reports on runs the image its spec names. After an image is
   * patched into a pod, the pod may still be Ready on the old image until the kubelet restarts the
   * container; such a pod must not count as available. Registry defaults are normalized ({@code
   * busybox} is {@code docker.io/library/busybox:latest}). A pod without container statuses (not
   * started, or from a fake without a kubelet) is taken at its word.
   */
  static boolean runsSpecImages(Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
      return true;
    }
    Map<String, String> specImages = new HashMap<>();
    for (Container container : pod.getSpec().getContainers()) {
      specImages.put(container.getName(), container.getImage());
    }
    for (ContainerStatus status : containerStatuses(pod)) {
      String specImage = specImages.get(status.getName());
      if (specImage != null
          && status.getImage() != null
          && !normalizeImage(specImage).equals(normalizeImage(status.getImage()))) {
        return false;
      }
    }
    return true;
  }

  /** Ready and running the images of its spec. */
  static boolean isAvailable(Pod pod) {
    return isReady(pod) && runsSpecImages(pod);
  }

  /** The pod's template hash label, or null. */
  static String templateHash(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? null : labels.get(PodSetLabels.TEMPLATE_HASH);
  }

  /** The pod's hash-without-images annotation, or null. */
  static String templateHashWithoutImages(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(PodSetLabels.TEMPLATE_HASH_WITHOUT_IMAGES);
  }

  /**
   * An image reference with the registry defaults applied: {@code docker.io/library/} for a bare
   * name, {@code docker.io/} for a one-slash name without a registry, {@code :latest} when neither
   * tag nor digest is given.
   */
  static String normalizeImage(String image) {
    String ref = image.trim();
    int slash = ref.indexOf('/');
    if (slash < 0) {
      ref = "docker.io/library/" + ref;
    } else {
      String first = ref.substring(0, slash);
      boolean registry = first.contains(".") || first.contains(":") || first.equals("localhost");
      if (!registry) {
        ref = "docker.io/" + ref;
      } else if (first.equals("index.docker.io")) {
        ref = "docker.io" + ref.substring(slash);
      }
    }
    if (ref.startsWith("docker.io/") && ref.indexOf('/', "docker.io/".length()) < 0) {
      ref = "docker.io/library/" + ref.substring("docker.io/".length());
    }
    int lastSlash = ref.lastIndexOf('/');
    String last = ref.substring(lastSlash + 1);
    if (!last.contains(":") && !last.contains("@")) {
      ref = ref + ":latest";
    }
    return ref;
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static PodCondition readyCondition(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      if ("Ready".equals(condition.getType())) {
        return condition;
      }
    }
    return null;
  }

  private static List<ContainerStatus> containerStatuses(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return List.of();
    }
    return pod.getStatus().getContainerStatuses();
  }

  private static Instant parseTime(String time) {
    if (time == null || time.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
