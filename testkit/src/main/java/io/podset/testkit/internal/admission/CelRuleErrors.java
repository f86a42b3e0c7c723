package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.resource.StatusError;

/**
 * The causes kube-apiserver gives when it refuses a CRD for its CEL rules, in its words: a rule
 * that does not compile or type-check (the rule printed as Go prints {@code ValidationRule}), a
 * {@code fieldPath} that names no field, {@code optionalOldSelf} on a rule without {@code oldSelf},
 * and rules on a node it cannot type. Fields are relative to the schema.
 */
final class CelRuleErrors {

  private CelRuleErrors() {}

  static StatusError.Cause invalidFieldPath(String field, String fieldPath) {
    return new StatusError.Cause(
        "FieldValueInvalid", field, "Invalid value: \"" + fieldPath + "\": must be a valid path");
  }

  /** As Kubernetes, also when the rule does not compile (it then "does not use" oldSelf). */
  static StatusError.Cause optionalOldSelfUnused(String field) {
    return new StatusError.Cause(
        "FieldValueInvalid",
        field,
        "Invalid value: true: may not be set if oldSelf is not used in rule");
  }

  /** Rules on a node without a CEL type (e.g. no {@code type}): none of them is compiled. */
  static StatusError.Cause untypedNode(String field) {
    return new StatusError.Cause(
        "InternalError",
        field,
        "Internal error: internal error: failed to construct type information for"
            + " x-kubernetes-validations rules: unable to convert structural schema to CEL"
            + " declarations");
  }

  static StatusError.Cause invalidRule(String field, JsonNode rule, String detail) {
    return new StatusError.Cause(
        "FieldValueInvalid", field, "Invalid value: " + goRule(rule) + ": " + detail);
  }

  /** The rule as Go's encoding/json prints apiextensions.ValidationRule (HTML-escaped). */
  private static String goRule(JsonNode v) {
    StringBuilder out = new StringBuilder("{");
    out.append("\"Rule\":").append(goString(v.path("rule").asText("")));
    out.append(",\"Message\":").append(goString(v.path("message").asText("")));
    out.append(",\"MessageExpression\":").append(goString(v.path("messageExpression").asText("")));
    out.append(",\"Reason\":")
        .append(v.has("reason") ? goString(v.get("reason").asText()) : "null");
    out.append(",\"FieldPath\":").append(goString(v.path("fieldPath").asText("")));
    out.append(",\"OptionalOldSelf\":")
        .append(v.has("optionalOldSelf") ? v.get("optionalOldSelf").asBoolean() : "null");
    return out.append('}').toString();
  }

  private static String goString(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<' -> out.append("\\u003c");
        case '>' -> out.append("\\u003e");
        case '&' -> out.append("\\u0026");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
