package io.podset.testkit.internal.http;

import io.podset.testkit.internal.resource.ResourcePath;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a request addresses, as Kubernetes' request-info resolver names it: the verb ({@code get},
 * {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete},
 * {@code deletecollection}) and, for resource paths, group, resource, subresource, namespace and
 * name. Other paths (discovery, {@code /version}) have the lower-case HTTP method as verb and a
 * null resource.
 */
public record RequestInfo(
    String verb, String group, String resource, String subresource, String namespace, String name) {

  /**
   * The subresources of a namespace itself ({@code namespaces/{ns}/status}, {@code .../finalize}):
   * what kube-apiserver's request-info resolver tells apart from namespaced resources when it knows
   * nothing of the server's resources.
   */
  private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

  /** Resolves {@code request}; {@code registry} tells namespaced resources from others. */
  public static RequestInfo of(ApiRequest request, ResourceRegistry registry) {
    return of(
        request,
        (group, version, plural) ->
            registry.find(group, version, plural).map(ResourceType::namespaced).orElse(false));
  }

  /**
   * Resolves {@code request} to any API server, whose resources are unknown: as kube-apiserver's
   * resolver does, a segment after {@code namespaces/{ns}/} names a namespaced resource unless it
   * is a namespace subresource ({@code status}, {@code finalize}).
   */
  public static RequestInfo ofAnyServer(ApiRequest request) {
    return of(request, (group, version, plural) -> !NAMESPACE_SUBRESOURCES.contains(plural));
  }

  /** Whether a resource of a group version is namespaced. */
  @FunctionalInterface
  private interface Scopes {
    boolean namespaced(String group, String version, String plural);
  }

  private static RequestInfo of(ApiRequest request, Scopes scopes) {
    String method = request.method().toLowerCase(Locale.ROOT);
    List<String> segments = request.segments();
    ResourcePath path = null;
    if (segments.size() > 2 && segments.get(0).equals("api")) {
      path = parse(scopes, "", segments.get(1), segments.subList(2, segments.size()));
    } else if (segments.size() > 3 && segments.get(0).equals("apis")) {
      path = parse(scopes, segments.get(1), segments.get(2), segments.subList(3, segments.size()));
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
      Scopes scopes, String group, String version, List<String> rest) {
    Predicate<String> namespaced = plural -> scopes.namespaced(group, version, plural);
    return ResourcePath.parse(group, version, rest, namespaced);
  }
}
