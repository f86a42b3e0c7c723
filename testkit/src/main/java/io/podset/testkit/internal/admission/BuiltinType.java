package io.podset.testkit.internal.admission;

import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A builder of one row of the {@link BuiltinResources} table: a kind in version {@code v1} (unless
 * told), without status, scale, field selectors, generation or rules of its own, printing its name
 * and age, until told otherwise.
 */
final class BuiltinType {

  /** The AGE column every kind prints last. */
  static final ResourceType.PrinterColumn AGE =
      new ResourceType.PrinterColumn(
          "Age", "date", "", "Creation time", ".metadata.creationTimestamp", 0);

  /** The scale subresource of a kind with {@code spec.replicas} and a selector. */
  static final ResourceType.ScaleSpec REPLICAS_SCALE =
      new ResourceType.ScaleSpec(".spec.replicas", ".status.replicas", ".spec.selector");

  private final String group;
  private final String plural;
  private final String kind;
  private final boolean namespaced;
  private List<String> shortNames = List.of();
  private List<String> categories = List.of();
  private boolean generation;
  private String version = "v1";
  private boolean status;
  private ResourceType.ScaleSpec scale;
  private Set<String> fields = Set.of();
  private List<ResourceType.PrinterColumn> columns = List.of(AGE);
  private TypeRules rules = TypeRules.none();

  private BuiltinType(String group, String plural, String kind, boolean namespaced) {
    this.group = group;
    this.plural = plural;
    this.kind = kind;
    this.namespaced = namespaced;
  }

  /** A namespaced kind of {@code group} ("" for core). */
  static BuiltinType namespaced(String group, String plural, String kind) {
    return new BuiltinType(group, plural, kind, true);
  }

  /** A cluster-scoped kind of {@code group} ("" for core). */
  static BuiltinType cluster(String group, String plural, String kind) {
    return new BuiltinType(group, plural, kind, false);
  }

  /** A string column of {@code path}, described by its name. */
  static ResourceType.PrinterColumn col(String name, String path) {
    return new ResourceType.PrinterColumn(name, "string", "", name, path, 0);
  }

  BuiltinType shortNames(String... names) {
    shortNames = List.of(names);
    return this;
  }

  /** In the category {@code all} ({@code kubectl get all}). */
  BuiltinType inAll() {
    return categories("all");
  }

  BuiltinType categories(String... names) {
    categories = List.of(names);
    return this;
  }

  /** Keeps {@code metadata.generation}, bumped by spec changes. */
  BuiltinType generation() {
    generation = true;
    return this;
  }

  BuiltinType version(String servedVersion) {
    version = servedVersion;
    return this;
  }

  /** Has a status subresource. */
  BuiltinType status() {
    status = true;
    return this;
  }

  BuiltinType scale(ResourceType.ScaleSpec spec) {
    scale = spec;
    return this;
  }

  /**
   * The field selectors of the kind beside {@code metadata.name} and {@code metadata.namespace}.
   */
  BuiltinType fields(String... supported) {
    fields = Set.of(supported);
    return this;
  }

  BuiltinType columns(ResourceType.PrinterColumn... printerColumns) {
    columns = List.of(printerColumns);
    return this;
  }

  BuiltinType rules(TypeRules typeRules) {
    rules = typeRules;
    return this;
  }

  ResourceType build() {
    return new ResourceType(
        group,
        version,
        plural,
        kind.toLowerCase(Locale.ROOT),
        kind,
        namespaced,
        shortNames,
        categories,
        status,
        scale,
        generation,
        fields,
        columns,
        rules,
        false);
  }
}
