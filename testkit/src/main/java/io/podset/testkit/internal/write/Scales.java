package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.JsonPaths;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.util.Map;

/** The {@code autoscaling/v1} Scale view of objects that declare a scale subresource. */
public final class Scales {

  private Scales() {}

  public static ObjectNode toScale(ResourceType type, ObjectNode object) {
    ResourceType.ScaleSpec spec = type.scale();
    ObjectNode scale = Json.object();
    scale.put("kind", "Scale");
    scale.put("apiVersion", "autoscaling/v1");
    ObjectNode meta = scale.putObject("metadata");
    JsonNode source = object.path("metadata");
    for (String field :
        new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
      if (source.has(field)) {
        meta.set(field, source.get(field));
      }
    }
    scale
        .putObject("spec")
        .put("replicas", JsonPaths.find(object, spec.specReplicasPath()).asInt(0));
    ObjectNode status = scale.putObject("status");
    status.put("replicas", JsonPaths.find(object, spec.statusReplicasPath()).asInt(0));
    if (spec.labelSelectorPath() != null) {
      JsonNode selector = JsonPaths.find(object, spec.labelSelectorPath());
      if (selector.isTextual()) {
        status.put("selector", selector.asText());
      } else if (selector.isObject()) {
        status.put("selector", selectorString(selector));
      }
    }
    return scale;
  }

  private static String selectorString(JsonNode selector) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, JsonNode> e : selector.path("matchLabels").properties()) {
      out.append(out.length() == 0 ? "" : ",")
          .append(e.getKey())
          .append('=')
          .append(e.getValue().asText());
    }
    for (JsonNode expr : selector.path("matchExpressions")) {
      out.append(out.length() == 0 ? "" : ",");
      String key = expr.path("key").asText();
      StringBuilder values = new StringBuilder();
      expr.path("values")
          .forEach(v -> values.append(values.length() == 0 ? "" : ",").append(v.asText()));
      switch (expr.path("operator").asText()) {
        case "In" -> out.append(key).append(" in (").append(values).append(')');
        case "NotIn" -> out.append(key).append(" notin (").append(values).append(')');
        case "Exists" -> out.append(key);
        default -> out.append('!').append(key);
      }
    }
    return out.toString();
  }

  /**
   * The object after writing {@code scale}: only the replica count at the spec path changes.
   *
   * @throws StatusError 409 when the Scale's resourceVersion is stale, 400 when malformed
   */
  public static ObjectNode applyScale(ResourceType type, ObjectNode current, JsonNode scale) {
    String expected = scale.path("metadata").path("resourceVersion").asText("");
    if (!expected.isEmpty() && !expected.equals(Json.resourceVersion(current))) {
      throw StatusError.conflict(type, Json.name(current));
    }
    JsonNode replicas = scale.path("spec").path("replicas");
    if (!replicas.isMissingNode() && !replicas.isIntegralNumber()) {
      throw StatusError.badRequest("spec.replicas of a Scale must be an integer");
    }
    if (replicas.asInt(0) < 0) {
      throw StatusError.invalid(
          type,
          Json.name(current),
          java.util.List.of(
              new StatusError.Cause(
                  "FieldValueInvalid",
                  "spec.replicas",
                  "Invalid value: " + replicas.asInt() + ": must be greater than or equal to 0")));
    }
    ObjectNode next = current.deepCopy();
    String[] path = type.scale().specReplicasPath().replaceFirst("^\\.", "").split("\\.");
    ObjectNode parent = next;
    for (int i = 0; i < path.length - 1; i++) {
      parent = Json.child(parent, path[i]);
    }
    parent.put(path[path.length - 1], replicas.asInt(0));
    return next;
  }
}
