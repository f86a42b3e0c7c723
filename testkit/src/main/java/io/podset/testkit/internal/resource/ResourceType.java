package io.podset.testkit.internal.resource;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One resource served at one group/version: its names, scope, subresources and the rules that apply
 * to its objects. Several versions of a custom resource share one {@link #storageKey()}.
 *
 * @param group API group, empty for the core group
 * @param version the served version
 * @param plural the resource name in URLs
 * @param singular the singular name
 * @param kind the object kind
 * @param namespaced whether objects live in namespaces
 * @param shortNames kubectl short names
 * @param categories kubectl categories (for example {@code all})
 * @param statusSubresource whether {@code /status} exists (main writes then ignore status)
 * @param scale the scale subresource, or null
 * @param generation whether {@code metadata.generation} is maintained
 * @param fieldSelectors field labels accepted besides {@code metadata.name/namespace}
 * @param printerColumns table columns after the name column
 * @param rules validation and defaulting for the kind
 * @param custom whether a CRD defines it
 */
public record ResourceType(
    String group,
    String version,
    String plural,
    String singular,
    String kind,
    boolean namespaced,
    List<String> shortNames,
    List<String> categories,
    boolean statusSubresource,
    ScaleSpec scale,
    boolean generation,
    Set<String> fieldSelectors,
    List<PrinterColumn> printerColumns,
    TypeRules rules,
    boolean custom) {

  public ResourceType {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(plural, "plural");
    Objects.requireNonNull(kind, "kind");
    shortNames = List.copyOf(shortNames);
    categories = List.copyOf(categories);
    fieldSelectors = Set.copyOf(fieldSelectors);
    printerColumns = List.copyOf(printerColumns);
    Objects.requireNonNull(rules, "rules");
  }

  /** The paths of a CRD's scale subresource. */
  public record ScaleSpec(
      String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {}

  /**
   * A table column: its JSON path is evaluated against the object; type {@code date} renders as an
   * age.
   */
  public record PrinterColumn(
      String name, String type, String format, String description, String jsonPath, int priority) {}

  /** Where objects of every served version are kept. */
  public String storageKey() {
    return rules.storageKey(this);
  }

  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  String groupVersion() {
    return apiVersion();
  }

  public String listKind() {
    return kind + "List";
  }

  ResourceType withRules(TypeRules newRules) {
    return new ResourceType(
        group,
        version,
        plural,
        singular,
        kind,
        namespaced,
        shortNames,
        categories,
        statusSubresource,
        scale,
        generation,
        fieldSelectors,
        printerColumns,
        newRules,
        custom);
  }
}
