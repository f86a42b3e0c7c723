package io.podset.testkit.internal.resource;

import java.util.ArrayList;
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
    List<String> s = new ArrayList<>(rest);
    boolean watch = false;
    if (!s.isEmpty() && s.get(0).equals("watch")) {
      watch = true;
      s.remove(0);
    }
    if (s.isEmpty()) {
      return null;
    }
    if (s.get(0).equals("namespaces") && s.size() >= 3 && isNamespacedResource.test(s.get(2))) {
      String namespace = s.get(1);
      List<String> tail = s.subList(2, s.size());
      if (tail.size() > 3) {
        return null;
      }
      return new ResourcePath(
          group,
          version,
          namespace,
          tail.get(0),
          tail.size() > 1 ? tail.get(1) : null,
          tail.size() > 2 ? tail.get(2) : null,
          watch);
    }
    if (s.size() > 3) {
      return null;
    }
    return new ResourcePath(
        group,
        version,
        null,
        s.get(0),
        s.size() > 1 ? s.get(1) : null,
        s.size() > 2 ? s.get(2) : null,
        watch);
  }
}
