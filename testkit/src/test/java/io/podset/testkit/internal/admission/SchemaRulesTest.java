package io.podset.testkit.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The causes of OpenAPI schema validation, worded as kube-apiserver words them. */
class SchemaRulesTest {

  private static final String SCHEMA =
      """
      {"type": "object", "properties": {"spec": {"type": "object", "required": ["size"],
        "properties": {
          "size": {"type": "integer", "minimum": 1, "maximum": 10},
          "open": {"type": "number", "minimum": 0, "exclusiveMinimum": true,
                   "maximum": 1, "exclusiveMaximum": true},
          "name": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"},
          "mode": {"type": "string", "enum": ["a", "b"]},
          "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}}}}}}
      """;

  @Test
  void valuesWithinTheSchema_haveNoCause() {
    assertThat(causes("{\"size\": 1, \"open\": 0.5, \"name\": \"ab\", \"tags\": [\"x\"]}"))
        .isEmpty();
    assertThat(causes("{\"size\": 10, \"name\": \"abcd\", \"mode\": \"b\"}")).isEmpty();
  }

  @Test
  void bounds_inclusiveAndExclusive() {
    assertThat(causes("{\"size\": 0}"))
        .containsExactly(
            "FieldValueInvalid spec.size: Invalid value: 0: spec.size in body should be greater"
                + " than or equal to 1");
    assertThat(causes("{\"size\": 11}"))
        .containsExactly(
            "FieldValueInvalid spec.size: Invalid value: 11: spec.size in body should be less than"
                + " or equal to 10");
    assertThat(causes("{\"size\": 1, \"open\": 0}"))
        .containsExactly(
            "FieldValueInvalid spec.open: Invalid value: 0: spec.open in body should be greater"
                + " than 0");
    assertThat(causes("{\"size\": 1, \"open\": 1}"))
        .containsExactly(
            "FieldValueInvalid spec.open: Invalid value: 1: spec.open in body should be less than"
                + " 1");
  }

  @Test
  void strings_lengthPatternAndEnum() {
    assertThat(causes("{\"size\": 1, \"name\": \"a\"}"))
        .containsExactly(
            "FieldValueInvalid spec.name: Invalid value: \"a\": spec.name in body should be at"
                + " least 2 chars long");
    assertThat(causes("{\"size\": 1, \"name\": \"abcdE\"}"))
        .containsExactly(
            "FieldValueTooLong spec.name: Too long: may not be more than 4 bytes",
            "FieldValueInvalid spec.name: Invalid value: \"abcdE\": spec.name in body should match"
                + " '^[a-z]+$'");
    assertThat(causes("{\"size\": 1, \"mode\": \"c\"}"))
        .containsExactly(
            "FieldValueNotSupported spec.mode: Unsupported value: \"c\": supported values: \"a\","
                + " \"b\"");
  }

  @Test
  void arrays_itemsCountedAndChecked_requiredAndTypes() {
    assertThat(causes("{\"size\": 1, \"tags\": []}"))
        .containsExactly(
            "FieldValueInvalid spec.tags: Invalid value: 0: spec.tags in body should have at least"
                + " 1 items");
    assertThat(causes("{\"size\": 1, \"tags\": [\"x\", \"y\", 3]}"))
        .containsExactly(
            "FieldValueTooMany spec.tags: Too many: 3: must have at most 2 items",
            "FieldValueTypeInvalid spec.tags[2]: Invalid value: \"integer\": spec.tags[2] in body"
                + " must be of type string: \"integer\"");
    assertThat(causes("{}")).containsExactly("FieldValueRequired spec.size: Required value");
  }

  private static List<String> causes(String spec) {
    try {
      SchemaRules rules = new SchemaRules(Json.parse(SCHEMA.getBytes()));
      ObjectNode object = Json.object();
      object.set("spec", Json.parse(spec.getBytes()));
      List<StatusError.Cause> causes = new ArrayList<>();
      rules.validate(object, causes);
      return causes.stream().map(c -> c.reason() + " " + c.field() + ": " + c.message()).toList();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
