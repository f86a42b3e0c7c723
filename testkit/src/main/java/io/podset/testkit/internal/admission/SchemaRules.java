package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rules of one custom resource version from its OpenAPI v3 schema: defaulting, pruning of unknown
 * fields (unless {@code x-kubernetes-preserve-unknown-fields}), and validation of type, required,
 * minimum/maximum (with the exclusive forms), enum, pattern, minLength/maxLength and
 * minItems/maxItems. {@code metadata}, {@code apiVersion} and {@code kind} are not checked here.
 */
public final class SchemaRules implements TypeRules {

  private final JsonNode schema;

  public SchemaRules(JsonNode schema) {
    this.schema = schema == null || schema.isMissingNode() ? null : schema.deepCopy();
  }

  /** The CRD version's {@code openAPIV3Schema} (not to be modified), or null when it has none. */
  public JsonNode schema() {
    return schema;
  }

  @Override
  public void applyDefaults(ObjectNode object) {
    prune(object, new ArrayList<>());
  }

  /** The paths of fields the schema does not declare (what pruning drops), for strict checks. */
  public List<String> unknownFields(ObjectNode object) {
    List<String> pruned = new ArrayList<>();
    prune(object.deepCopy(), pruned);
    return pruned;
  }

  private void prune(ObjectNode object, List<String> pruned) {
    if (schema == null) {
      return;
    }
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      String name = e.getKey();
      if (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata")) {
        continue;
      }
      JsonNode sub = schema.path("properties").path(name);
      if (sub.isMissingNode()) {
        if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
          unknown.add(name);
          pruned.add(name);
        }
      } else {
        defaultAndPrune(e.getValue(), sub, name, pruned);
      }
    }
    object.remove(unknown);
    addDefaults(object, schema, true);
  }

  private static void defaultAndPrune(
      JsonNode value, JsonNode schema, String path, List<String> pruned) {
    if (value instanceof ObjectNode object) {
      JsonNode props = schema.path("properties");
      JsonNode additional = schema.path("additionalProperties");
      boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
      List<String> unknown = new ArrayList<>();
      for (Map.Entry<String, JsonNode> e : object.properties()) {
        JsonNode sub = props.path(e.getKey());
        if (sub.isMissingNode() && additional.isObject()) {
          sub = additional;
        }
        if (sub.isMissingNode()) {
          if (!preserve) {
            unknown.add(e.getKey());
            pruned.add(path + "." + e.getKey());
          }
        } else {
          defaultAndPrune(e.getValue(), sub, path + "." + e.getKey(), pruned);
        }
      }
      object.remove(unknown);
      addDefaults(object, schema, false);
    } else if (value != null && value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        defaultAndPrune(value.get(i), schema.path("items"), path + "[" + i + "]", pruned);
      }
    }
  }

  private static void addDefaults(ObjectNode object, JsonNode schema, boolean root) {
    for (Map.Entry<String, JsonNode> e : schema.path("properties").properties()) {
      if (root && e.getKey().equals("metadata")) {
        continue;
      }
      JsonNode def = e.getValue().get("default");
      if (def != null && !object.has(e.getKey())) {
        JsonNode copy = def.deepCopy();
        object.set(e.getKey(), copy);
        defaultAndPrune(copy, e.getValue(), e.getKey(), new ArrayList<>());
      }
    }
  }

  @Override
  public void validate(ObjectNode object, List<StatusError.Cause> causes) {
    if (schema == null) {
      return;
    }
    for (String required : SchemaChecks.names(schema.path("required"))) {
      if (!object.has(required)) {
        causes.add(new StatusError.Cause("FieldValueRequired", required, "Required value"));
      }
    }
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      String name = e.getKey();
      if (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata")) {
        continue;
      }
      JsonNode sub = schema.path("properties").path(name);
      if (!sub.isMissingNode()) {
        SchemaChecks.check(e.getValue(), sub, name, causes);
      }
    }
  }
}
