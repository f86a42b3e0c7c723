package io.podset.testkit.internal.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The document of the built-in kinds of one group/version: the real server's, with only the paths
 * of the resources (and of their status and scale subresources) the fake serves, and the schemas
 * those paths reach. A path of a resource the fake does not serve, or of a subresource such as
 * {@code pods/log} or {@code namespaces/finalize}, is dropped.
 */
final class BuiltinDocuments {

  private BuiltinDocuments() {}

  /** The trimmed document, or null when the real server has none for this group/version. */
  static ObjectNode document(String groupVersion, List<ResourceType> served) {
    String prefix = groupVersion.contains("/") ? "/apis/" + groupVersion : "/api/" + groupVersion;
    JsonNode real = RealDocuments.builtin(prefix.substring(1));
    if (!real.isObject()) {
      return null;
    }
    Map<String, ResourceType> byPlural =
        served.stream().collect(Collectors.toMap(ResourceType::plural, Function.identity()));
    ObjectNode doc = real.deepCopy();
    Iterator<String> paths = doc.path("paths").fieldNames();
    while (paths.hasNext()) {
      String path = paths.next();
      if (!path.startsWith(prefix + "/") || !served(path.substring(prefix.length()), byPlural)) {
        paths.remove();
      }
    }
    SchemaReferences.dropUnreachable(doc);
    return doc;
  }

  /**
   * Whether the path below the group/version ({@code /namespaces/{namespace}/pods/{name}/status},
   * {@code /watch/pods}, {@code /}) is one of a served resource or subresource.
   */
  static boolean served(String path, Map<String, ResourceType> byPlural) {
    List<String> segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    if (segments.isEmpty()) {
      return true; // the group/version's resource list
    }
    int at = segments.get(0).equals("watch") ? 1 : 0;
    if (segments.size() > at + 2
        && segments.get(at).equals("namespaces")
        && segments.get(at + 1).equals("{namespace}")) {
      at += 2;
    }
    if (at >= segments.size()) {
      return false;
    }
    ResourceType type = byPlural.get(segments.get(at));
    if (type == null) {
      return false;
    }
    List<String> rest = segments.subList(at + 1, segments.size());
    if (rest.size() <= 1) {
      return true; // the collection or one object
    }
    String sub = rest.size() == 2 ? rest.get(1) : "";
    return (sub.equals("status") && type.statusSubresource())
        || (sub.equals("scale") && type.scale() != null);
  }
}
