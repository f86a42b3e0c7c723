package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The validation of one value against an OpenAPI v3 schema, with kube-apiserver's causes: type (and
 * {@code x-kubernetes-int-or-string}, {@code nullable}), enum, minimum/maximum with their exclusive
 * forms, minLength/maxLength, pattern, minItems/maxItems, required and nested properties, items and
 * additionalProperties.
 */
final class SchemaChecks {

  private SchemaChecks() {}

  /** The names in a JSON array of strings ({@code required}). */
  static List<String> names(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Adds a cause for each way {@code value} (at {@code path}) breaks {@code schema}. */
  static void check(JsonNode value, JsonNode schema, String path, List<StatusError.Cause> causes) {
    if (value.isNull()) {
      if (!schema.path("nullable").asBoolean(false)) {
        causes.add(
            new StatusError.Cause(
                "FieldValueTypeInvalid",
                path,
                "Invalid value: \"null\": "
                    + path
                    + " in body must be of type "
                    + schema.path("type").asText("object")
                    + ": \"null\""));
      }
      return;
    }
    String type = schema.path("type").asText("");
    boolean intOrString = schema.path("x-kubernetes-int-or-string").asBoolean(false);
    if (intOrString) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        causes.add(typeError(value, path, "integer or string"));
      }
    } else if (!type.isEmpty() && !hasType(value, type)) {
      causes.add(typeError(value, path, type));
      return;
    }
    JsonNode enumValues = schema.get("enum");
    if (enumValues != null && enumValues.isArray()) {
      boolean found = false;
      StringBuilder supported = new StringBuilder();
      for (JsonNode allowed : enumValues) {
        found |= allowed.equals(value);
        supported.append(supported.length() == 0 ? "" : ", ").append(allowed);
      }
      if (!found) {
        causes.add(
            new StatusError.Cause(
                "FieldValueNotSupported",
                path,
                "Unsupported value: " + value + ": supported values: " + supported));
      }
    }
    if (value.isNumber()) {
      checkNumber(value, schema, path, causes);
    }
    if (value.isTextual()) {
      String text = value.asText();
      if (schema.has("maxLength") && text.length() > schema.get("maxLength").asInt()) {
        causes.add(
            new StatusError.Cause(
                "FieldValueTooLong",
                path,
                "Too long: may not be more than " + schema.get("maxLength").asInt() + " bytes"));
      }
      if (schema.has("minLength") && text.length() < schema.get("minLength").asInt()) {
        causes.add(
            invalid(
                value,
                path,
                "should be at least " + schema.get("minLength").asInt() + " chars long"));
      }
      if (schema.has("pattern")
          && !Pattern.compile(schema.get("pattern").asText()).matcher(text).find()) {
        causes.add(invalid(value, path, "should match '" + schema.get("pattern").asText() + "'"));
      }
    }
    if (value.isArray()) {
      if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
        causes.add(
            new StatusError.Cause(
                "FieldValueTooMany",
                path,
                "Too many: "
                    + value.size()
                    + ": must have at most "
                    + schema.get("maxItems").asInt()
                    + " items"));
      }
      if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
        causes.add(
            invalid(
                value.size(),
                path,
                "should have at least " + schema.get("minItems").asInt() + " items"));
      }
      JsonNode items = schema.path("items");
      if (!items.isMissingNode()) {
        for (int i = 0; i < value.size(); i++) {
          check(value.get(i), items, path + "[" + i + "]", causes);
        }
      }
    }
    if (value.isObject()) {
      for (String required : names(schema.path("required"))) {
        if (!value.has(required)) {
          causes.add(
              new StatusError.Cause("FieldValueRequired", path + "." + required, "Required value"));
        }
      }
      JsonNode props = schema.path("properties");
      JsonNode additional = schema.path("additionalProperties");
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        JsonNode sub = props.path(e.getKey());
        if (sub.isMissingNode() && additional.isObject()) {
          sub = additional;
        }
        if (!sub.isMissingNode()) {
          check(e.getValue(), sub, path + "." + e.getKey(), causes);
        }
      }
    }
  }

  private static void checkNumber(
      JsonNode value, JsonNode schema, String path, List<StatusError.Cause> causes) {
    bound(value, schema, "minimum", "exclusiveMinimum", "greater than", path, causes);
    bound(value, schema, "maximum", "exclusiveMaximum", "less than", path, causes);
  }

  /** The check of one bound ({@code minimum} or {@code maximum}), with its exclusive form. */
  private static void bound(
      JsonNode value,
      JsonNode schema,
      String field,
      String exclusiveField,
      String relation,
      String path,
      List<StatusError.Cause> causes) {
    if (!schema.has(field)) {
      return;
    }
    int order = Double.compare(value.asDouble(), schema.get(field).asDouble());
    boolean exclusive = schema.path(exclusiveField).asBoolean(false);
    int allowed = field.equals("minimum") ? 1 : -1;
    if (order == -allowed || (exclusive && order == 0)) {
      causes.add(
          invalid(
              value,
              path,
              "should be "
                  + relation
                  + " "
                  + (exclusive ? "" : "or equal to ")
                  + schema.get(field)));
    }
  }

  /** A FieldValueInvalid cause: {@code Invalid value: <value>: <path> in body <should>}. */
  private static StatusError.Cause invalid(Object value, String path, String should) {
    return new StatusError.Cause(
        "FieldValueInvalid", path, "Invalid value: " + value + ": " + path + " in body " + should);
  }

  private static boolean hasType(JsonNode value, String type) {
    return switch (type) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      case "integer" ->
          value.isIntegralNumber()
              || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      default -> true;
    };
  }

  private static StatusError.Cause typeError(JsonNode value, String path, String type) {
    String actual =
        value.isTextual()
            ? "string"
            : value.isIntegralNumber()
                ? "integer"
                : value.isNumber()
                    ? "number"
                    : value.isBoolean() ? "boolean" : value.isArray() ? "array" : "object";
    return new StatusError.Cause(
        "FieldValueTypeInvalid",
        path,
        "Invalid value: \""
            + actual
            + "\": "
            + path
            + " in body must be of type "
            + type
            + ": \""
            + actual
            + "\"");
  }
}
