package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.ContentHashes;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Aggregated discovery ({@code apidiscovery.k8s.io/v2}): {@code /api} and {@code /apis} as one
 * {@code APIGroupDiscoveryList} each, for clients whose {@code Accept} asks for it. As
 * kube-apiserver 1.34: resources sorted by name; built-in resources with verbs sorted and an empty
 * group/version in their response kinds, CRDs with the CRD handler's verb order and their own
 * group/version; every version {@code Current}; {@code Cache-Control: public}, the hash of the body
 * as ETag, {@code Vary: Accept}. v2beta1 is no longer served by 1.34, nor here.
 */
final class AggregatedDiscovery {

  static final String MEDIA_TYPE =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

  /** What an {@code Accept} header gets from {@code /api} and {@code /apis}. */
  enum Form {
    AGGREGATED,
    PLAIN,
    NOT_ACCEPTABLE
  }

  private static final List<String> CRD_VERBS =
      List.of("delete", "deletecollection", "get", "list", "patch", "create", "update", "watch");
  private static final List<String> SUBRESOURCE_VERBS = List.of("get", "patch", "update");

  private final ResourceRegistry registry;

  AggregatedDiscovery(ResourceRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * The first media range of {@code accept} that the fake serves: aggregated v2 JSON, or a plain
   * document (JSON, YAML, protobuf or a wildcard, all answered with JSON). Ranges asking for
   * another {@code as=} (v2beta1, or the protobuf aggregated form) are skipped; when nothing is
   * left, 406.
   */
  static Form negotiate(String accept) {
    if (accept == null || accept.isBlank()) {
      return Form.PLAIN;
    }
    for (String range : accept.split(",")) {
      String[] parts = range.split(";");
      String type = parts[0].trim().toLowerCase(Locale.ROOT);
      String g = null;
      String v = null;
      String as = null;
      for (int i = 1; i < parts.length; i++) {
        String[] kv = parts[i].trim().split("=", 2);
        if (kv.length == 2) {
          switch (kv[0].trim()) {
            case "g" -> g = kv[1].trim();
            case "v" -> v = kv[1].trim();
            case "as" -> as = kv[1].trim();
            default -> {}
          }
        }
      }
      if (as == null) {
        if (type.equals("application/json")
            || type.equals("application/yaml")
            || type.equals("application/vnd.kubernetes.protobuf")
            || type.equals("application/*")
            || type.equals("*/*")) {
          return Form.PLAIN;
        }
      } else if (type.equals("application/json")
          && "apidiscovery.k8s.io".equals(g)
          && "v2".equals(v)
          && "APIGroupDiscoveryList".equals(as)) {
        return Form.AGGREGATED;
      }
    }
    return Form.NOT_ACCEPTABLE;
  }

  /** The core group's list ({@code /api}). */
  ApiResponse core() {
    ObjectNode list = list();
    ObjectNode group = ((ArrayNode) list.get("items")).addObject();
    group.putObject("metadata");
    group.putArray("versions").add(version("v1", "v1"));
    return response(list);
  }

  /** The named groups' list ({@code /apis}). */
  ApiResponse groups() {
    ObjectNode list = list();
    ArrayNode items = (ArrayNode) list.get("items");
    for (Map.Entry<String, List<String>> e : registry.groups().entrySet()) {
      ObjectNode group = items.addObject();
      group.putObject("metadata").put("name", e.getKey());
      ArrayNode versions = group.putArray("versions");
      for (String version : e.getValue()) {
        versions.add(version(e.getKey() + "/" + version, version));
      }
    }
    return response(list);
  }

  private static ObjectNode list() {
    ObjectNode list = Json.object();
    list.put("kind", "APIGroupDiscoveryList");
    list.put("apiVersion", "apidiscovery.k8s.io/v2");
    list.putObject("metadata");
    list.putArray("items");
    return list;
  }

  private ObjectNode version(String groupVersion, String version) {
    ObjectNode node = Json.object();
    node.put("version", version);
    ArrayNode resources = node.putArray("resources");
    List<ResourceType> types = new ArrayList<>(registry.typesOf(groupVersion));
    types.sort(Comparator.comparing(ResourceType::plural));
    types.forEach(type -> resources.add(resource(type)));
    node.put("freshness", "Current");
    return node;
  }

  private static ObjectNode resource(ResourceType type) {
    ObjectNode r = Json.object();
    r.put("resource", type.plural());
    r.set("responseKind", kind(type, type.kind()));
    r.put("scope", type.namespaced() ? "Namespaced" : "Cluster");
    r.put("singularResource", type.singular());
    ArrayNode verbs = r.putArray("verbs");
    (type.custom() ? CRD_VERBS : Discovery.VERBS).forEach(verbs::add);
    strings(r, "shortNames", type.shortNames());
    strings(r, "categories", type.categories());
    List<ObjectNode> subresources = new ArrayList<>();
    if (type.statusSubresource()) {
      subresources.add(subresource("status", kind(type, type.kind())));
    }
    if (type.scale() != null) {
      ObjectNode scale = Json.object().put("group", "autoscaling").put("version", "v1");
      subresources.add(subresource("scale", scale.put("kind", "Scale")));
    }
    if (!type.custom()) {
      // Built-in subresources come sorted by name; a CRD's in the order status, scale.
      subresources.sort(Comparator.comparing(s -> s.path("subresource").asText()));
    }
    if (!subresources.isEmpty()) {
      r.putArray("subresources").addAll(subresources);
    }
    return r;
  }

  /** A response kind: built-in kinds leave group and version empty, a CRD's are its own. */
  private static ObjectNode kind(ResourceType type, String kind) {
    ObjectNode node = Json.object();
    node.put("group", type.custom() ? type.group() : "");
    node.put("version", type.custom() ? type.version() : "");
    node.put("kind", kind);
    return node;
  }

  private static ObjectNode subresource(String name, ObjectNode responseKind) {
    ObjectNode s = Json.object();
    s.put("subresource", name);
    s.set("responseKind", responseKind);
    ArrayNode verbs = s.putArray("verbs");
    SUBRESOURCE_VERBS.forEach(verbs::add);
    return s;
  }

  private static void strings(ObjectNode node, String field, List<String> values) {
    if (!values.isEmpty()) {
      ArrayNode array = node.putArray(field);
      values.forEach(array::add);
    }
  }

  private static ApiResponse response(ObjectNode list) {
    byte[] body = Json.bytes(list);
    return new ApiResponse(
        200,
        MEDIA_TYPE,
        body,
        Map.of(
            "Cache-Control", "public",
            "ETag", "\"" + ContentHashes.sha512(body) + "\"",
            "Vary", "Accept"));
  }
}
