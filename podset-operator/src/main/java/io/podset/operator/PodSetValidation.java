package io.podset.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.api.v1alpha1.PodSetSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds what makes a PodSet unworkable although the API server accepted it: the CRD schema cannot
 * express every rule (a pod template is not validated as a pod), and a schema may not have been
 * enforced at all. Each message names the field and the value.
 */
final class PodSetValidation {

  private PodSetValidation() {}

  /** The first problem found, or empty when the PodSet can be reconciled. */
  static Optional<String> problem(PodSet podSet) {
    String name = podSet.getMetadata().getName();
    if (name.length() > PodSetLabels.MAX_NAME_LENGTH) {
      return Optional.of(
          "metadata.name '"
              + name
              + "' is "
              + name.length()
              + " characters long; it must be at most "
              + PodSetLabels.MAX_NAME_LENGTH
              + " because it is the value of the label "
              + PodSetLabels.PODSET
              + " on the PodSet's pods");
    }
    PodSetSpec spec = podSet.getSpec() == null ? PodSetSpec.defaults() : podSet.getSpec();
    int replicas = spec.effectiveReplicas();
    if (replicas < 0 || replicas > PodSetDefaults.MAX_REPLICAS) {
      return Optional.of(
          "spec.replicas must be between 0 and "
              + PodSetDefaults.MAX_REPLICAS
              + ", got "
              + replicas);
    }
    int maxUnavailable = spec.effectiveMaxUnavailable();
    if (maxUnavailable < 1) {
      return Optional.of(
          "spec.updateStrategy.maxUnavailable must be at least 1, got " + maxUnavailable);
    }
    return templateProblem(spec.effectiveTemplate(), name);
  }

  private static Optional<String> templateProblem(PodTemplateSpec template, String podSetName) {
    List<Container> containers =
        template.getSpec() == null ? null : template.getSpec().getContainers();
    if (containers == null || containers.isEmpty()) {
      return Optional.of(
          "spec.template.spec.containers must list at least one container, got none");
    }
    for (int i = 0; i < containers.size(); i++) {
      Container container = containers.get(i);
      if (container.getName() == null || container.getName().isBlank()) {
        return Optional.of(
            "spec.template.spec.containers["
                + i
                + "].name must be set, got '"
                + container.getName()
                + "'");
      }
      if (container.getImage() == null || container.getImage().isBlank()) {
        return Optional.of(
            "spec.template.spec.containers["
                + i
                + "].image must be set (container '"
                + container.getName()
                + "'), got '"
                + container.getImage()
                + "'");
      }
    }
    Map<String, String> labels =
        template.getMetadata() == null ? null : template.getMetadata().getLabels();
    String own = labels == null ? null : labels.get(PodSetLabels.PODSET);
    if (own != null && !own.equals(podSetName)) {
      return Optional.of(
          "spec.template.metadata.labels["
              + PodSetLabels.PODSET
              + "] must be absent or the PodSet's name '"
              + podSetName
              + "', got '"
              + own
              + "'");
    }
    return Optional.empty();
  }
}
