package io.podset.operator;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.ownership.OwnerReferences;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns a PodSet's template into the pod to create. */
final class PodTemplates {

  /**
   * The longest generateName prefix: the API server (and the ReplicaSet controller) keep 58
   * characters so that the name with its 5 random characters fits in 63.
   */
  static final int MAX_GENERATE_NAME_PREFIX = 58;

  private PodTemplates() {}

  /**
   * A new pod for {@code podSet} from {@code template}: named {@code <podset>-<random>} by the
   * server ({@code generateName}), in the PodSet's namespace, labelled with the template's labels,
   * the PodSet's label and the template hash, annotated with the template's annotations and the
   * hash without images, controlled by the PodSet. The template is copied, never shared.
   *
   * @throws io.podset.runtime.ownership.OwnershipException if the PodSet has no uid
   */
  static Pod newPod(PodSet podSet, PodTemplateSpec template, PodTemplateHash hash) {
    ObjectMeta templateMeta =
        template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Map<String, String> labels = new LinkedHashMap<>();
    if (templateMeta.getLabels() != null) {
      labels.putAll(templateMeta.getLabels());
    }
    labels.putAll(PodSetLabels.selector(podSet));
    labels.put(PodSetLabels.TEMPLATE_HASH, hash.full());
    Map<String, String> annotations = new LinkedHashMap<>();
    if (templateMeta.getAnnotations() != null) {
      annotations.putAll(templateMeta.getAnnotations());
    }
    annotations.put(PodSetLabels.TEMPLATE_HASH_WITHOUT_IMAGES, hash.withoutImages());

    ObjectMeta meta = new ObjectMeta();
    meta.setGenerateName(generateNamePrefix(podSet.getMetadata().getName()));
    meta.setNamespace(podSet.getMetadata().getNamespace());
    meta.setLabels(labels);
    meta.setAnnotations(annotations);
    Pod pod = new Pod();
    pod.setMetadata(meta);
    pod.setSpec(new PodSpecBuilder(template.getSpec()).build());
    OwnerReferences.setControllerReference(podSet, pod);
    return pod;
  }

  /** {@code name + "-"}, cut to {@value #MAX_GENERATE_NAME_PREFIX} characters. */
  static String generateNamePrefix(String podSetName) {
    String prefix = podSetName + "-";
    return prefix.length() <= MAX_GENERATE_NAME_PREFIX
        ? prefix
        : prefix.substring(0, MAX_GENERATE_NAME_PREFIX);
  }
}
