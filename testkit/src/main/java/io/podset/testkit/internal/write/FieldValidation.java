package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.admission.SchemaRules;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code fieldValidation} query parameter of writes: fields an object's type does not declare
 * (built-in kinds: their protobuf schema, see {@link BuiltinFields}; custom resources: the CRD's
 * OpenAPI schema) are dropped, and reported as {@code Warning} headers under {@code Warn} (the
 * default), refused with a 400 under {@code Strict}, or dropped silently under {@code Ignore}.
 */
final class FieldValidation {

  private FieldValidation() {}

  /**
   * Checks {@code body} (dropping a built-in kind's unknown fields and a custom resource's unknown
   * metadata; its schema prunes the rest later) and returns the warnings to send.
   *
   * @throws StatusError 400 for an unknown mode, or for unknown fields under {@code Strict}
   */
  static List<String> check(ResourceType type, ObjectNode body, ApiRequest request) {
    String mode = request.param("fieldValidation");
    if (mode == null || mode.isEmpty()) {
      mode = "Warn";
    }
    if (!List.of("Ignore", "Warn", "Strict").contains(mode)) {
      throw StatusError.badRequest(
          "fieldValidation: Unsupported value: \""
              + mode
              + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
    }
    List<String> unknown = new ArrayList<>();
    if (type.rules() instanceof SchemaRules schema) {
      unknown.addAll(BuiltinFields.pruneMetadata(body));
      unknown.addAll(schema.unknownFields(body));
    } else {
      unknown.addAll(BuiltinFields.prune(type, body));
    }
    if (unknown.isEmpty() || mode.equals("Ignore")) {
      return List.of();
    }
    List<String> messages = new ArrayList<>();
    for (String field : unknown) {
      messages.add("unknown field \"" + field + "\"");
    }
    if (mode.equals("Strict")) {
      throw StatusError.badRequest(
          type.kind()
              + " in version \""
              + type.version()
              + "\" cannot be handled as a "
              + type.kind()
              + ": strict decoding error: "
              + String.join(", ", messages));
    }
    return messages;
  }

  /**
   * {@code response} with one {@code Warning} header carrying every warning (RFC 7234 form,
   * comma-separated as client-go's parser reads them), or unchanged when there are none.
   */
  static ApiResponse withWarnings(ApiResponse response, List<String> warnings) {
    if (warnings.isEmpty()) {
      return response;
    }
    List<String> values = new ArrayList<>();
    for (String warning : warnings) {
      values.add("299 - \"" + warning.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
    }
    return response.withHeader("Warning", String.join(", ", values));
  }
}
