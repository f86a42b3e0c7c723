package io.podset.testkit.internal.resource;

import java.util.List;

/**
 * A parsed resource URL: {@code /api/v1/...} or {@code /apis/{group}/{version}/...}, optionally
 * with the legacy {@code watch/} segment, then {@code
 * [namespaces/{ns}/]{resource}[/{name}[/{sub}]]}.
 *
 * @param group API group, empty for core
 * @param version API version
 * @param namespace the namespace, or null
 * @param resource the resource (plural)
 * @param name the object name, or null for the collection
 * @param subresource the subresource, or null
 * @param legacyWatch whether the path used the {@code watch/} prefix
 */
public record ResourcePath(
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource,
    boolean legacyWatch) {

  /**
   * Parses the segments after the group/version. {@code isNamespacedResource} tells whether a
   * segment after {@code namespaces/{ns}/} names a resource (rather than a namespace subresource).
   *
   * @return the path, or null when the shape is not a resource path
   */
  public static ResourcePath parse(
      String group,
      String version,
      List<String> rest,
      java.util.function.Predicate<String> isNamespacedResource) {
    // Offsets into rest, not a copy of it: every request's path is parsed two to three times.
    int first = 0;
    boolean watch = false;
    if (!rest.isEmpty() && rest.get(0).equals("watch")) {
      watch = true;
      first = 1;
    }
    int size = rest.size() - first;
    if (size == 0) {
      return null;
    }
    String namespace = null;
    if (rest.get(first).equals("namespaces")
        && size >= 3
        && isNamespacedResource.test(rest.get(first + 2))) {
      namespace = rest.get(first + 1);
      first += 2;
      size -= 2;
    }
    if (size > 3) {
      return null;
    }
    return new ResourcePath(
        group,
        version,
        namespace,
        rest.get(first),
        size > 1 ? rest.get(first + 1) : null,
        size > 2 ? rest.get(first + 2) : null,
        watch);
  }
}
