package io.podset.api.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A test-only validator for the subset of OpenAPI v3 that the generated CRD uses, with the API
 * server's outcomes: errors worded like the API server's ({@code spec.replicas: Invalid value:
 * 1000000: spec.replicas in body should be less than or equal to 10000}) and the paths of unknown
 * fields that a structural schema prunes. A schema keyword it does not know fails the check loudly,
 * so a richer generated schema cannot be silently half-validated.
 */
final class StructuralSchema {

  private static final Set<String> KNOWN_KEYWORDS =
      Set.of(
          "type",
          "properties",
          "required",
          "minimum",
          "maximum",
          "pattern",
          "items",
          "additionalProperties",
          "anyOf",
          "x-kubernetes-int-or-string",
          "x-kubernetes-preserve-unknown-fields",
          "description",
          "default");

  private final JsonNode root;

  StructuralSchema(JsonNode root) {
    this.root = root;
  }

  /** The outcome of validating one object. */
  record Result(List<String> errors, List<String> pruned) {}

  Result validate(JsonNode object) {
    List<String> errors = new ArrayList<>();
    List<String> pruned = new ArrayList<>();
    check(root, object, "", errors, pruned);
    return new Result(errors, pruned);
  }

  private void check(
      JsonNode schema, JsonNode value, String path, List<String> errors, List<String> pruned) {
    for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
      String keyword = it.next();
      if (!KNOWN_KEYWORDS.contains(keyword)) {
        throw new IllegalStateException("schema keyword '" + keyword + "' at " + path);
      }
    }
    if (value.isNull()) {
      errors.add(
          path + ": Invalid value: \"null\": " + path + " in body must be of type " + type(schema));
      return;
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        errors.add(path + ": Invalid value: " + value + ": must be an integer or a string");
      }
      return;
    }
    String type = type(schema);
    switch (type) {
      case "object" -> checkObject(schema, value, path, errors, pruned);
      case "array" -> {
        if (!value.isArray()) {
          errors.add(typeError(path, value, type));
          return;
        }
        for (int i = 0; i < value.size(); i++) {
          check(schema.get("items"), value.get(i), path + "[" + i + "]", errors, pruned);
        }
      }
      case "integer" -> {
        if (!value.isIntegralNumber()) {
          errors.add(typeError(path, value, type));
          return;
        }
        if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
          errors.add(
              path
                  + ": Invalid value: "
                  + value
                  + ": "
                  + path
                  + " in body should be greater than or equal to "
                  + schema.get("minimum").asLong());
        }
        if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
          errors.add(
              path
                  + ": Invalid value: "
                  + value
                  + ": "
                  + path
                  + " in body should be less than or equal to "
                  + schema.get("maximum").asLong());
        }
      }
      case "number" -> {
        if (!value.isNumber()) {
          errors.add(typeError(path, value, type));
        }
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          errors.add(typeError(path, value, type));
        }
      }
      case "string" -> {
        if (!value.isTextual()) {
          errors.add(typeError(path, value, type));
          return;
        }
        if (schema.has("pattern")
            && !Pattern.compile(schema.get("pattern").asText()).matcher(value.asText()).find()) {
          errors.add(
              path
                  + ": Invalid value: \""
                  + value.asText()
                  + "\": "
                  + path
                  + " in body should match '"
                  + schema.get("pattern").asText()
                  + "'");
        }
      }
      default -> throw new IllegalStateException("schema type '" + type + "' at " + path);
    }
  }

  private void checkObject(
      JsonNode schema, JsonNode value, String path, List<String> errors, List<String> pruned) {
    if (!value.isObject()) {
      errors.add(typeError(path, value, "object"));
      return;
    }
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText())) {
        errors.add(join(path, required.asText()) + ": Required value");
      }
    }
    JsonNode properties = schema.get("properties");
    JsonNode additional = schema.get("additionalProperties");
    boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    for (Map.Entry<String, JsonNode> field : value.properties()) {
      String fieldPath = join(path, field.getKey());
      if (properties != null && properties.has(field.getKey())) {
        check(properties.get(field.getKey()), field.getValue(), fieldPath, errors, pruned);
      } else if (additional != null) {
        check(additional, field.getValue(), fieldPath, errors, pruned);
      } else if (path.isEmpty()
          && Set.of("apiVersion", "kind", "metadata").contains(field.getKey())) {
        continue; // validated by the API server itself, not by the CRD schema
      } else if (!preserve) {
        pruned.add(fieldPath);
      }
    }
  }

  private static String type(JsonNode schema) {
    if (!schema.has("type")) {
      throw new IllegalStateException("schema without type: " + schema);
    }
    return schema.get("type").asText();
  }

  private static String typeError(String path, JsonNode value, String type) {
    return path + ": Invalid value: " + value + ": " + path + " in body must be of type " + type;
  }

  private static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }
}
