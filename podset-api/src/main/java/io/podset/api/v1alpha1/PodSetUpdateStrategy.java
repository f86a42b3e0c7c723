package io.podset.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/**
 * How template changes reach existing pods ({@code spec.updateStrategy}).
 *
 * <p>An image change is patched into running pods in place; any other template change replaces
 * pods. Either way at most {@link #maxUnavailable()} pods are allowed to be not ready because of
 * the update at a time. The minimum is 1: a PodSet never runs extra pods during an update (there is
 * no {@code maxSurge}), so, as with a Deployment whose {@code maxSurge} is 0, a {@code
 * maxUnavailable} of 0 could never make progress.
 *
 * @param maxUnavailable the largest number of pods that may be unavailable during an update; {@code
 *     null} means the default {@value PodSetDefaults#MAX_UNAVAILABLE}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodSetUpdateStrategy(
    @JsonPropertyDescription(
            "The largest number of pods that may be unavailable during an update (an image change"
                + " patched in place, or a pod replaced after another template change). At least"
                + " 1; default 1.")
        @Default("" + PodSetDefaults.MAX_UNAVAILABLE)
        @Min(1)
        Integer maxUnavailable) {

  /**
   * A strategy allowing {@code maxUnavailable} pods to be unavailable during an update.
   *
   * @throws IllegalArgumentException if {@code maxUnavailable} is less than 1
   */
  public static PodSetUpdateStrategy ofMaxUnavailable(int maxUnavailable) {
    if (maxUnavailable < 1) {
      throw new IllegalArgumentException(
          "updateStrategy.maxUnavailable must be at least 1, got " + maxUnavailable);
    }
    return new PodSetUpdateStrategy(maxUnavailable);
  }

  /** The default strategy: {@code maxUnavailable} {@value PodSetDefaults#MAX_UNAVAILABLE}. */
  public static PodSetUpdateStrategy defaults() {
    return new PodSetUpdateStrategy(null);
  }

  /**
   * {@link #maxUnavailable()}, or the default {@value PodSetDefaults#MAX_UNAVAILABLE} when absent.
   * A stored value below 1 (only possible when the schema was not enforced) is returned as is; the
   * operator reports it.
   */
  public int effectiveMaxUnavailable() {
    return maxUnavailable == null ? PodSetDefaults.MAX_UNAVAILABLE : maxUnavailable;
  }
}
