package io.podset.api.v1alpha1;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The defaults and limits of the PodSet API, in one place.
 *
 * <p>Two kinds of defaults exist. Those of scalar fields ({@link #REPLICAS}, {@link
 * #MAX_UNAVAILABLE}) are in the CRD schema, so the API server fills them in when an object is
 * created; the Java accessors ({@link PodSetSpec#effectiveReplicas()}, {@link
 * PodSetUpdateStrategy#effectiveMaxUnavailable()}) apply them as well, for objects that did not go
 * through a defaulting server. The default pod {@link #template()} is applied by the operator only:
 * a schema default for a whole pod template would be copied into every stored object and could
 * never change.
 */
public final class PodSetDefaults {

  /** The default of {@code spec.replicas}: {@value}. */
  public static final int REPLICAS = 1;

  /**
   * The largest {@code spec.replicas} the schema accepts: {@value}. A PodSet is not meant for more
   * pods than a large cluster runs in one namespace; the limit turns a typo such as {@code
   * replicas: 1000000} into a validation error ({@code spec.replicas in body should be less than or
   * equal to 10000}) instead of a flood of pod creations.
   */
  public static final int MAX_REPLICAS = 10_000;

  /** The default of {@code spec.updateStrategy.maxUnavailable}: {@value}. */
  public static final int MAX_UNAVAILABLE = 1;

  /** The name of the container in the default template: {@value}. */
  public static final String CONTAINER_NAME = "busybox";

  /** The image of the container in the default template: {@value}. */
  public static final String IMAGE = "busybox";

  /** The command of the container in the default template: {@code sleep 3600}. */
  public static final List<String> COMMAND = List.of("sleep", "3600");

  private PodSetDefaults() {}

  /**
   * The pod template used when {@code spec.template} is absent: one container named {@value
   * #CONTAINER_NAME}, image {@value #IMAGE}, running {@code sleep 3600}, and no labels of its own.
   *
   * @return a new instance on each call, which the caller may modify
   */
  public static PodTemplateSpec template() {
    Container container = new Container();
    container.setName(CONTAINER_NAME);
    container.setImage(IMAGE);
    container.setCommand(new ArrayList<>(COMMAND));
    PodSpec podSpec = new PodSpec();
    podSpec.setContainers(new ArrayList<>(List.of(container)));
    PodTemplateSpec template = new PodTemplateSpec();
    template.setSpec(podSpec);
    return template;
  }
}
