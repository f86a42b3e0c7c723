package io.podset.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Objects;

/**
 * A set of identical pods kept at a desired count, like a ReplicaSet: {@code
 * app.example.com/v1alpha1}, kind {@code PodSet}, plural {@code podsets}, short name {@code ps},
 * namespaced.
 *
 * <p>The smallest valid PodSet is the seed's example, {@code spec: {replicas: 3}}: the template and
 * the update strategy are optional (see {@link PodSetSpec}). The CRD has the {@code status}
 * subresource (the operator writes {@link PodSetStatus} through {@code /status}) and the {@code
 * scale} subresource ({@code kubectl scale ps/NAME --replicas=N} writes {@code spec.replicas}; the
 * scale's status reads {@code status.replicas} and {@code status.selector}). {@code kubectl get ps}
 * shows the columns Desired ({@code spec.replicas}), Current ({@code status.replicas}), Ready
 * ({@code status.readyReplicas}) and Age; the CRD generator orders them by JSON path, so they print
 * as AGE, DESIRED, READY, CURRENT.
 *
 * <p>A new instance has an empty spec (so {@link #getSpec()} is never null unless set so) and no
 * status. Instances are mutable fabric8 objects: an object read from an informer's cache must not
 * be modified; copy it first.
 */
@Group(PodSet.GROUP)
@Version(PodSet.VERSION)
@Kind(PodSet.KIND)
@Plural(PodSet.PLURAL)
@Singular(PodSet.SINGULAR)
@ShortNames(PodSet.SHORT_NAME)
@AdditionalPrinterColumn(
    name = "Desired",
    jsonPath = ".spec.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER,
    getDescription = "The number of pods wanted.")
@AdditionalPrinterColumn(
    name = "Current",
    jsonPath = ".status.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER,
    getDescription = "The number of pods owned and not terminating.")
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER,
    getDescription = "The number of owned pods that are ready.")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@SchemaSwap(
    originalType = PodTemplateSpec.class,
    fieldName = "metadata",
    targetType = PodTemplateMetadataSchema.class)
public final class PodSet extends CustomResource<PodSetSpec, PodSetStatus> implements Namespaced {

  private static final long serialVersionUID = 1L;

  /** The API group, {@value}. */
  public static final String GROUP = "app.example.com";

  /** The API version within the group, {@value}. */
  public static final String VERSION = "v1alpha1";

  /** The {@code apiVersion} of PodSet objects, {@value}. */
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /** The kind, {@value}. */
  public static final String KIND = "PodSet";

  /** The resource name in URLs, {@value}. */
  public static final String PLURAL = "podsets";

  /** The singular resource name, {@value}. */
  public static final String SINGULAR = "podset";

  /** The short name for kubectl, {@value}. */
  public static final String SHORT_NAME = "ps";

  /** The name of the CustomResourceDefinition, {@value}. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;

  /** Creates a PodSet with no metadata, an empty spec (all defaults) and no status. */
  public PodSet() {
    super();
  }

  /**
   * Creates a PodSet in {@code namespace} named {@code name} with {@code spec} and no status.
   *
   * @throws NullPointerException if an argument is null
   */
  public static PodSet of(String namespace, String name, PodSetSpec spec) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
    PodSet podSet = new PodSet();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setNamespace(namespace);
    metadata.setName(name);
    podSet.setMetadata(metadata);
    podSet.setSpec(spec);
    return podSet;
  }

  @Override
  protected PodSetSpec initSpec() {
    return PodSetSpec.defaults();
  }
}
