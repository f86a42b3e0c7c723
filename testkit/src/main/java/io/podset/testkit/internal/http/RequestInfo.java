package io.podset.testkit.internal.http;

import io.podset.testkit.internal.resource.ResourcePath;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a request addresses, as Kubernetes' request-info resolver names it: the verb ({@code get},
 * {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete},
 * {@code deletecollection}) and, for resource paths, group, resource, subresource, namespace and
 * name. Other paths (discovery, {@code /version}) have the lower-case HTTP method as verb and a
 * null resource.
 */
public record RequestInfo(
    String verb, String group, String resource, String subresource, String namespace, String name) {

  /** Resolves {@code request}; {@code registry} tells namespaced resources from others. */
  public static RequestInfo of(ApiRequest request, ResourceRegistry registry) {
    String method = request.method().toLowerCase(Locale.ROOT);
    List<String> segments =
        Arrays.stream(request.path().split("/")).filter(s -> !s.isEmpty()).toList();
    ResourcePath path = null;
    if (segments.size() > 2 && segments.get(0).equals("api")) {
      path = parse(registry, "", segments.get(1), segments.subList(2, segments.size()));
    } else if (segments.size() > 3 && segments.get(0).equals("apis")) {
      path =
          parse(registry, segments.get(1), segments.get(2), segments.subList(3, segments.size()));
    }
    if (path == null) {
      return new RequestInfo(method, null, null, null, null, null);
    }
    String watch = request.param("watch");
    boolean watching = path.legacyWatch() || "true".equals(watch) || "1".equals(watch);
    String verb =
        switch (method) {
          case "get" -> watching ? "watch" : path.name() == null ? "list" : "get";
          case "post" -> "create";
          case "put" -> "update";
          case "patch" -> "patch";
          case "delete" -> path.name() == null ? "deletecollection" : "delete";
          default -> method;
        };
    return new RequestInfo(
        verb, path.group(), path.resource(), path.subresource(), path.namespace(), path.name());
  }

  private static ResourcePath parse(
      ResourceRegistry registry, String group, String version, List<String> rest) {
    return ResourcePath.parse(
        group,
        version,
        rest,
        plural ->
            registry.find(group, version, plural).map(ResourceType::namespaced).orElse(false));
  }
}
