package io.podset.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

/**
 * The desired state of a {@link PodSet} ({@code spec}). Every field is optional: {@code spec:
 * {replicas: 3}} and even {@code spec: {}} are complete.
 *
 * <p>Validation in the CRD schema: {@code replicas} is an int32 in [0, {@value
 * PodSetDefaults#MAX_REPLICAS}] with default {@value PodSetDefaults#REPLICAS}; {@code
 * updateStrategy.maxUnavailable} is at least 1 with default {@value
 * PodSetDefaults#MAX_UNAVAILABLE}. The {@code effective*} methods apply the same defaults in Java.
 *
 * @param replicas the number of pods wanted; {@code null} means the default {@value
 *     PodSetDefaults#REPLICAS}. It is the scale subresource's {@code spec.replicas}.
 * @param template the pods to create; {@code null} means {@link PodSetDefaults#template()} (one
 *     {@code busybox} container running {@code sleep 3600}), applied by the operator. Not copied:
 *     treat it as read-only.
 * @param updateStrategy how template changes reach existing pods; {@code null} means {@link
 *     PodSetUpdateStrategy#defaults()}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodSetSpec(
    @JsonPropertyDescription(
            "The number of pods wanted, from 0 to "
                + PodSetDefaults.MAX_REPLICAS
                + ". Default "
                + PodSetDefaults.REPLICAS
                + ". Read and written by the scale subresource.")
        @Default("" + PodSetDefaults.REPLICAS)
        @Min(0)
        @Max(PodSetDefaults.MAX_REPLICAS)
        @SpecReplicas
        Integer replicas,
    @JsonPropertyDescription(
            "The pod template. Optional: when absent the operator uses one container named"
                + " busybox, image busybox, command [sleep, 3600]. Pods also get the PodSet's own"
                + " label; an image change is patched into existing pods in place, any other"
                + " change replaces pods gradually.")
        PodTemplateSpec template,
    @JsonPropertyDescription(
            "How template changes reach existing pods. Optional: default maxUnavailable 1.")
        PodSetUpdateStrategy updateStrategy) {

  /** A spec with every field absent, so every default applies. */
  public static PodSetSpec defaults() {
    return new PodSetSpec(null, null, null);
  }

  /**
   * A spec asking for {@code replicas} pods of the default template.
   *
   * @throws IllegalArgumentException if {@code replicas} is outside [0, {@value
   *     PodSetDefaults#MAX_REPLICAS}]
   */
  public static PodSetSpec ofReplicas(int replicas) {
    return new PodSetSpec(checkReplicas(replicas), null, null);
  }

  /**
   * This spec with {@code replicas} pods.
   *
   * @throws IllegalArgumentException if {@code replicas} is outside [0, {@value
   *     PodSetDefaults#MAX_REPLICAS}]
   */
  public PodSetSpec withReplicas(int replicas) {
    return new PodSetSpec(checkReplicas(replicas), template, updateStrategy);
  }

  /** This spec with {@code template}; {@code null} selects the default template. */
  public PodSetSpec withTemplate(PodTemplateSpec template) {
    return new PodSetSpec(replicas, template, updateStrategy);
  }

  /** This spec with {@code updateStrategy}; {@code null} selects the default strategy. */
  public PodSetSpec withUpdateStrategy(PodSetUpdateStrategy updateStrategy) {
    return new PodSetSpec(replicas, template, updateStrategy);
  }

  /**
   * {@link #replicas()}, or the default {@value PodSetDefaults#REPLICAS} when absent. A stored
   * value outside the schema's range (only possible when the schema was not enforced) is returned
   * as is; the operator reports it.
   */
  public int effectiveReplicas() {
    return replicas == null ? PodSetDefaults.REPLICAS : replicas;
  }

  /**
   * {@link #template()}, or a new {@link PodSetDefaults#template()} when absent. The returned
   * object is this spec's own template when present: do not modify it.
   */
  public PodTemplateSpec effectiveTemplate() {
    return template == null ? PodSetDefaults.template() : template;
  }

  /** {@link #updateStrategy()}, or {@link PodSetUpdateStrategy#defaults()} when absent. */
  public PodSetUpdateStrategy effectiveUpdateStrategy() {
    return updateStrategy == null ? PodSetUpdateStrategy.defaults() : updateStrategy;
  }

  /** {@code effectiveUpdateStrategy().effectiveMaxUnavailable()}. */
  public int effectiveMaxUnavailable() {
    return effectiveUpdateStrategy().effectiveMaxUnavailable();
  }

  private static Integer checkReplicas(int replicas) {
    if (replicas < 0 || replicas > PodSetDefaults.MAX_REPLICAS) {
      throw new IllegalArgumentException(
          "spec.replicas must be between 0 and "
              + PodSetDefaults.MAX_REPLICAS
              + ", got "
              + replicas);
    }
    return replicas;
  }
}
