package io.podset.testkit.internal.auth;

import io.podset.testkit.internal.http.ApiRequest;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What a request asks to do, as kube-apiserver's request-info resolver and {@code
 * authorizer.Attributes} name it. Paths under {@code /api} and {@code /apis} are resource requests
 * (whether or not the resource exists: authorization comes before routing); every other path is a
 * non-resource request whose verb is the lower-case HTTP method.
 *
 * @param user who asks
 * @param verb get, list, watch, create, update, patch, delete, deletecollection, impersonate (or,
 *     for non-resource requests, the lower-case method)
 * @param resourceRequest whether it addresses a resource
 * @param path the request path (non-resource requests are authorized by it)
 * @param apiGroup the API group, empty for core
 * @param apiVersion the API version
 * @param namespace the namespace, empty at the cluster scope
 * @param resource the resource, empty for non-resource requests
 * @param subresource the subresource, empty when none
 * @param name the object's name, empty when none
 */
public record Attributes(
    Identity user,
    String verb,
    boolean resourceRequest,
    String path,
    String apiGroup,
    String apiVersion,
    String namespace,
    String resource,
    String subresource,
    String name) {

  private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");
  private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

  public Attributes {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(apiGroup, "apiGroup");
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(subresource, "subresource");
    Objects.requireNonNull(name, "name");
  }

  /** A resource request's attributes. */
  static Attributes resource(
      Identity user,
      String verb,
      String group,
      String version,
      String namespace,
      String resource,
      String subresource,
      String name) {
    return new Attributes(
        user, verb, true, "", group, version, namespace, resource, subresource, name);
  }

  /** A non-resource request's attributes. */
  static Attributes nonResource(Identity user, String verb, String path) {
    return new Attributes(user, verb, false, path, "", "", "", "", "", "");
  }

  /** The same request with another verb (a patch that creates is authorized for create too). */
  Attributes withVerb(String otherVerb) {
    return new Attributes(
        user,
        otherVerb,
        resourceRequest,
        path,
        apiGroup,
        apiVersion,
        namespace,
        resource,
        subresource,
        name);
  }

  /** {@code resource/subresource}, or the resource alone. */
  String combinedResource() {
    return subresource.isEmpty() ? resource : resource + "/" + subresource;
  }

  /** Resolves {@code request} as kube-apiserver's {@code RequestInfoFactory} does. */
  static Attributes of(Identity user, ApiRequest request) {
    String path = request.path();
    String method = request.method().toUpperCase(Locale.ROOT);
    // Read at offsets into the request's segments (split once per request), never copied.
    List<String> parts = request.segments();
    int end = parts.size();
    if (end < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
      return nonResource(user, method.toLowerCase(Locale.ROOT), path);
    }
    boolean grouped = parts.get(0).equals("apis");
    int at = 1;
    String group = "";
    if (grouped) {
      if (end - at < 3) {
        return nonResource(user, method.toLowerCase(Locale.ROOT), path);
      }
      group = parts.get(at++);
    }
    String version = parts.get(at++);
    String verb;
    if (parts.get(at).equals("watch") || parts.get(at).equals("proxy")) {
      if (end - at < 2) {
        return nonResource(user, method.toLowerCase(Locale.ROOT), path);
      }
      verb = parts.get(at++);
    } else {
      verb =
          switch (method) {
            case "POST" -> "create";
            case "GET", "HEAD" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> "";
          };
    }
    String namespace = "";
    if (parts.get(at).equals("namespaces") && end - at > 1) {
      namespace = parts.get(at + 1);
      if (end - at > 2 && !NAMESPACE_SUBRESOURCES.contains(parts.get(at + 2))) {
        at += 2;
      }
    }
    String resource = parts.get(at);
    String name = end - at >= 2 ? parts.get(at + 1) : "";
    String subresource = end - at >= 3 && !verb.equals("proxy") ? parts.get(at + 2) : "";
    if (name.isEmpty() && verb.equals("get")) {
      verb = parseBool(request.param("watch")) ? "watch" : "list";
      String selected = exactName(request.param("fieldSelector"));
      if (selected != null) {
        name = selected;
      }
    }
    if (name.isEmpty() && verb.equals("delete")) {
      verb = "deletecollection";
    }
    return resource(user, verb, group, version, namespace, resource, subresource, name);
  }

  /** Go's {@code strconv.ParseBool} true values. */
  private static boolean parseBool(String value) {
    return value != null && TRUE.contains(value);
  }

  /**
   * The name a field selector requires with {@code metadata.name=} or {@code ==} (a list or watch
   * of one object is authorized with its name), or null.
   */
  private static String exactName(String selector) {
    if (selector == null) {
      return null;
    }
    for (String term : selector.split(",")) {
      String t = term.trim();
      String value = null;
      if (t.startsWith("metadata.name==")) {
        value = t.substring("metadata.name==".length());
      } else if (t.startsWith("metadata.name=")) {
        value = t.substring("metadata.name=".length());
      }
      if (value != null
          && !value.isEmpty()
          && !value.equals(".")
          && !value.equals("..")
          && !value.contains("/")
          && !value.contains("%")) {
        return value;
      }
    }
    return null;
  }
}
