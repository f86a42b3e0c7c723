package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.admission.SchemaRules;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A minimal OpenAPI v3 surface: the index at {@code /openapi/v3} and, per group/version, the create
 * and patch operations with their query parameters and group/version/kind, so that kubectl sees
 * {@code fieldValidation} support and leaves validation to the server. Custom resources also get
 * their CRD's schema as a component (what {@code kubectl explain} reads); built-in kinds have none.
 */
public final class OpenApiDocuments {

  private static final List<String> WRITE_PARAMS =
      List.of("dryRun", "fieldManager", "fieldValidation");

  private final ResourceRegistry registry;
  private final String gitVersion;

  public OpenApiDocuments(ResourceRegistry registry, String gitVersion) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.gitVersion = Objects.requireNonNull(gitVersion, "gitVersion");
  }

  ObjectNode index() {
    ObjectNode root = Json.object();
    ObjectNode paths = root.putObject("paths");
    addIndexEntry(paths, "api/v1", "v1");
    for (Map.Entry<String, List<String>> group : registry.groups().entrySet()) {
      for (String version : group.getValue()) {
        String gv = group.getKey() + "/" + version;
        addIndexEntry(paths, "apis/" + gv, gv);
      }
    }
    return root;
  }

  private void addIndexEntry(ObjectNode paths, String path, String groupVersion) {
    String hash = Integer.toHexString(registry.typesOf(groupVersion).hashCode());
    paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hash);
  }

  /** The document of one group/version, or null when it is not served. */
  ObjectNode document(String groupVersion) {
    List<ResourceType> types = registry.typesOf(groupVersion);
    if (types.isEmpty()) {
      return null;
    }
    ObjectNode doc = Json.object();
    doc.put("openapi", "3.0.0");
    ObjectNode info = doc.putObject("info");
    info.put("title", "Kubernetes");
    info.put("version", gitVersion);
    ObjectNode paths = doc.putObject("paths");
    for (ResourceType type : types) {
      String base = type.group().isEmpty() ? "/api/v1" : "/apis/" + type.apiVersion();
      String collection =
          base + (type.namespaced() ? "/namespaces/{namespace}/" : "/") + type.plural();
      ObjectNode gvk = Json.object();
      gvk.put("group", type.group());
      gvk.put("version", type.version());
      gvk.put("kind", type.kind());
      paths.putObject(collection).set("post", operation("create" + type.kind(), gvk));
      paths.putObject(collection + "/{name}").set("patch", operation("patch" + type.kind(), gvk));
    }
    ObjectNode schemas = doc.putObject("components").putObject("schemas");
    for (ResourceType type : types) {
      if (type.rules() instanceof SchemaRules rules && rules.schema() != null) {
        schemas.set(schemaName(type), customResourceSchema(type, rules.schema()));
      }
    }
    return doc;
  }

  // As kube-apiserver names them: the group's labels reversed, then version and kind.
  private static String schemaName(ResourceType type) {
    List<String> labels = new ArrayList<>(List.of(type.group().split("\\.")));
    Collections.reverse(labels);
    return String.join(".", labels) + "." + type.version() + "." + type.kind();
  }

  private static ObjectNode customResourceSchema(ResourceType type, JsonNode crdSchema) {
    ObjectNode schema = crdSchema.deepCopy();
    ObjectNode properties = Json.child(schema, "properties");
    if (!properties.has("apiVersion")) {
      properties
          .putObject("apiVersion")
          .put("type", "string")
          .put(
              "description",
              "APIVersion defines the versioned schema of this representation of an object.");
    }
    if (!properties.has("kind")) {
      properties
          .putObject("kind")
          .put("type", "string")
          .put(
              "description",
              "Kind is a string value representing the REST resource this object represents.");
    }
    if (!properties.has("metadata")) {
      properties
          .putObject("metadata")
          .put("type", "object")
          .put("description", "Standard object's metadata.");
    }
    ObjectNode gvk = schema.putArray("x-kubernetes-group-version-kind").addObject();
    gvk.put("group", type.group());
    gvk.put("kind", type.kind());
    gvk.put("version", type.version());
    return schema;
  }

  private static ObjectNode operation(String id, ObjectNode gvk) {
    ObjectNode op = Json.object();
    op.put("operationId", id);
    ArrayNode params = op.putArray("parameters");
    for (String name : WRITE_PARAMS) {
      ObjectNode p = params.addObject();
      p.put("name", name);
      p.put("in", "query");
      p.put("description", name);
      p.putObject("schema").put("type", "string");
      p.put("uniqueItems", true);
    }
    op.putObject("responses").putObject("200").put("description", "OK");
    op.set("x-kubernetes-group-version-kind", gvk);
    return op;
  }
}
