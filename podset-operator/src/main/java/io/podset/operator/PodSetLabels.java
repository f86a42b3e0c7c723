package io.podset.operator;

import io.podset.api.v1alpha1.PodSet;
import java.util.Map;
import java.util.Objects;

/**
 * The labels and annotations the operator puts on a PodSet's pods.
 *
 * <p>Every pod of PodSet {@code web} carries {@code app.example.com/podset: web} (the PodSet's
 * selector: {@code status.selector} and orphan adoption use it), the template's own labels, and
 * {@value #TEMPLATE_HASH} (the hash of the whole template the pod runs, so {@code updatedReplicas}
 * can count pods on the current template). The annotation {@value #TEMPLATE_HASH_WITHOUT_IMAGES}
 * holds the hash of the template with its container images left out: when only that part matches,
 * the pod differs from the template by images alone, and the new images are patched in place.
 */
public final class PodSetLabels {

  /** The label naming a pod's PodSet; its value is the PodSet's name. */
  public static final String PODSET = "app.example.com/podset";

  /** The label holding the hash of the template a pod was created from (or patched to). */
  public static final String TEMPLATE_HASH = "app.example.com/template-hash";

  /** The annotation holding the hash of that template without container images. */
  public static final String TEMPLATE_HASH_WITHOUT_IMAGES =
      "app.example.com/template-hash-without-images";

  /**
   * The longest PodSet name that works: the name is a label value, and label values have at most
   * {@value} characters.
   */
  public static final int MAX_NAME_LENGTH = 63;

  private PodSetLabels() {}

  /** The label selector of the PodSet's pods as a map: {@code {app.example.com/podset: name}}. */
  public static Map<String, String> selector(PodSet podSet) {
    return Map.of(PODSET, nameOf(podSet));
  }

  /** The selector in string form, {@code app.example.com/podset=name}, as in {@code status}. */
  public static String selectorString(PodSet podSet) {
    return PODSET + "=" + nameOf(podSet);
  }

  /** Whether {@code labels} (may be null) select a pod of the PodSet named {@code podSetName}. */
  public static boolean matches(Map<String, String> labels, String podSetName) {
    Objects.requireNonNull(podSetName, "podSetName");
    return labels != null && podSetName.equals(labels.get(PODSET));
  }

  private static String nameOf(PodSet podSet) {
    Objects.requireNonNull(podSet, "podSet");
    return Objects.requireNonNull(podSet.getMetadata().getName(), "podSet.metadata.name");
  }
}
