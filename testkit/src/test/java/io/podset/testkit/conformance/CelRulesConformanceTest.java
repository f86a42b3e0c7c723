package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CEL validation rules of CRDs ({@code x-kubernetes-validations}) with the Gadget CRD of the test
 * resources: rules on objects, scalars, list items and map values, messages, {@code
 * messageExpression}, {@code reason} and {@code fieldPath}, transition rules with {@code oldSelf}
 * and {@code optionalOldSelf}, the Kubernetes libraries (lists, strings, regex, quantity, URL),
 * timestamps and durations from the schema's formats, and CRDs whose rules do not compile. Causes
 * are compared as sets: kube-apiserver visits an object's properties in Go map order.
 */
class CelRulesConformanceTest extends ConformanceTestBase {

  private static final String NAME = "Gadget.conformance.podset.io \"";

  @BeforeAll
  void installGadgets() {
    target.installCrd("/conformance-gadget-crd.yaml");
  }

  private String gadgets() {
    return "/apis/conformance.podset.io/v1/namespaces/" + ns + "/gadgets";
  }

  private Raw post(String name, String spec) {
    return raw(
        "POST",
        gadgets(),
        "application/json",
        "{\"apiVersion\":\"conformance.podset.io/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\""
            + name
            + "\"},\"spec\":"
            + spec
            + "}",
        Map.of());
  }

  private Raw patch(String name, String spec) {
    return raw(
        "PATCH",
        gadgets() + "/" + name,
        "application/merge-patch+json",
        "{\"spec\":" + spec + "}",
        Map.of());
  }

  /** The causes of a 422 as {@code reason field: message}, sorted. */
  private static List<String> causes(Raw raw) {
    assertThat(raw.code()).as("refused with 422: " + raw.body()).isEqualTo(422);
    assertThat(raw.body().path("reason").asText()).isEqualTo("Invalid");
    List<String> out = new ArrayList<>();
    for (JsonNode c : raw.body().path("details").path("causes")) {
      out.add(
          c.path("reason").asText()
              + " "
              + c.path("field").asText()
              + ": "
              + c.path("message").asText());
    }
    out.sort(null);
    return out;
  }

  private static void assertCreated(Raw raw) {
    assertThat(raw.code()).as("accepted: " + raw.body()).isEqualTo(201);
  }

  private static void assertOk(Raw raw) {
    assertThat(raw.code()).as("accepted: " + raw.body()).isEqualTo(200);
  }

  @Test
  void ruleOnObject_refusesWithItsMessage_andAcceptsWhatHolds() {
    assertCreated(post("holds", "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3}"));
    Raw refused = post("fails", "{\"name\":\"g-a\",\"minReplicas\":4,\"maxReplicas\":3}");

    assertThat(causes(refused))
        .containsExactly(
            "FieldValueInvalid spec: Invalid value: \"object\": minReplicas must not exceed"
                + " maxReplicas");
    assertThat(refused.body().path("message").asText())
        .isEqualTo(
            NAME
                + "fails\" is invalid: spec: Invalid value: \"object\": minReplicas must not exceed"
                + " maxReplicas");
    assertThat(refused.body().path("details").path("kind").asText()).isEqualTo("Gadget");
  }

  @Test
  void messageExpression_defaultMessage_reasonAndFieldPath() {
    Raw refused =
        post("expr", "{\"name\":\"Bad\",\"minReplicas\":1,\"maxReplicas\":3,\"mode\":\"broken\"}");

    assertThat(causes(refused))
        .containsExactly(
            "FieldValueForbidden spec.mode: Forbidden: mode broken is forbidden",
            "FieldValueInvalid spec.name: Invalid value: \"string\": failed rule: self =="
                + " self.lowerAscii()",
            "FieldValueInvalid spec: Invalid value: \"object\": name Bad must start with g-");
  }

  @Test
  void rulesOnItemsMapValuesAndFormats_withTheKubernetesLibraries() {
    Raw refused =
        post(
            "libs",
            "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3,\"ratio\":2,\"memory\":\"2Gi\","
                + "\"endpoint\":\"http://x\",\"start\":\"2019-01-01T00:00:00Z\",\"timeout\":\"2h\","
                + "\"ports\":[3,2,0,3],\"tags\":{\"a\":\"X\",\"b\":\"c\",\"c\":\"d\",\"d\":\"e\"},"
                + "\"words\":[\"x\",\"a\",\"abcdefg\",\"a1\",\"b_c\"]}");

    assertThat(causes(refused))
        .containsExactly(
            "FieldValueDuplicate spec.ports: Duplicate value: \"array\"",
            "FieldValueInvalid spec.endpoint: Invalid value: \"string\": endpoint must be an"
                + " https URL",
            "FieldValueInvalid spec.memory: Invalid value: \"\": memory must be a quantity below"
                + " 1Gi",
            "FieldValueInvalid spec.ports: Invalid value: \"array\": ports must be sorted",
            "FieldValueInvalid spec.ports[2]: Invalid value: \"integer\": port out of range",
            "FieldValueInvalid spec.ratio: Invalid value: \"number\": failed rule: self < 1.0",
            "FieldValueInvalid spec.start: Invalid value: \"string\": start must be after 2020",
            "FieldValueInvalid spec.tags[a]: Invalid value: \"string\": tag values must be"
                + " lowercase",
            "FieldValueInvalid spec.timeout: Invalid value: \"string\": timeout at most 1h",
            "FieldValueInvalid spec.words: Invalid value: \"array\": no digits in words",
            "FieldValueInvalid spec.words: Invalid value: \"array\": no long words",
            "FieldValueInvalid spec.words: Invalid value: \"array\": words are trimmed",
            "FieldValueInvalid spec.words: Invalid value: \"array\": words: no x, min is not a",
            "FieldValueRequired spec.tags: Required value: at most 3 tags");

    assertCreated(
        post(
            "libs-ok",
            "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3,\"ratio\":0.5,"
                + "\"memory\":\"512Mi\",\"endpoint\":\"https://h:8/p?q=1\","
                + "\"start\":\"2021-01-01T00:00:00Z\",\"timeout\":\"30m\",\"ports\":[1,2,80],"
                + "\"tags\":{\"a\":\"b-1\"},\"words\":[\"ab\",\"cd\"]}"));
  }

  @Test
  void transitionRules_runOnlyOnUpdates_whereTheOldValueExists() {
    assertCreated(
        post(
            "moves",
            "{\"name\":\"g-a\",\"minReplicas\":2,\"maxReplicas\":3,\"mode\":\"a\","
                + "\"items\":[{\"key\":\"k\",\"value\":\"free\"}]}"));

    assertThat(causes(patch("moves", "{\"minReplicas\":1}")))
        .containsExactly(
            "FieldValueInvalid spec: Invalid value: \"object\": minReplicas may not decrease");
    // A new item of a map list has no old value: its transition rule is not evaluated.
    assertThat(
            causes(
                patch(
                    "moves",
                    "{\"mode\":\"b\",\"items\":[{\"key\":\"k\",\"value\":\"v\"},"
                        + "{\"key\":\"j\",\"value\":\"w\"}]}")))
        .containsExactly(
            "FieldValueInvalid spec.mode: Invalid value: \"string\": mode is immutable");
    assertOk(patch("moves", "{\"items\":[{\"key\":\"k\",\"value\":\"v\"}]}"));
    assertThat(causes(patch("moves", "{\"items\":[{\"key\":\"k\",\"value\":\"z\"}]}")))
        .containsExactly(
            "FieldValueInvalid spec.items[0]: Invalid value: \"object\": item values are fixed"
                + " once set");
  }

  @Test
  void optionalOldSelf_seesAnAbsentOldValue() {
    assertCreated(post("once", "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3}"));
    assertOk(patch("once", "{\"optional\":\"o\"}"));

    assertThat(causes(patch("once", "{\"optional\":\"p\"}")))
        .containsExactly(
            "FieldValueInvalid spec.optional: Invalid value: \"string\": optional is set once");
    assertOk(patch("once", "{\"optional\":null}"));
    assertOk(patch("once", "{\"optional\":\"q\"}"));
  }

  @Test
  void schemaErrors_stopTheRules_andEvaluationErrorsAreInvalid() {
    assertThat(causes(post("typed", "{\"name\":\"g-a\",\"minReplicas\":\"x\",\"maxReplicas\":3}")))
        .containsExactly(
            "FieldValueInvalid <nil>: Invalid value: null: some validation rules were not checked"
                + " because the object was invalid; correct the existing errors to complete"
                + " validation",
            "FieldValueTypeInvalid spec.minReplicas: Invalid value: \"string\": spec.minReplicas"
                + " in body must be of type integer: \"string\"");
    assertThat(causes(post("missing", "{\"name\":\"g-a\",\"maxReplicas\":3}")))
        .containsExactly(
            "FieldValueInvalid spec: Invalid value: \"object\": no such key: minReplicas"
                + " evaluating rule: minReplicas must not exceed maxReplicas");
  }

  @Test
  void crdWhoseRulesDoNotCompile_isRefused() {
    Raw refused =
        raw(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "application/json",
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"brokens.conformance.podset.io\"},\"spec\":{"
                + "\"group\":\"conformance.podset.io\",\"scope\":\"Namespaced\","
                + "\"names\":{\"plural\":\"brokens\",\"kind\":\"Broken\"},\"versions\":[{"
                + "\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{"
                + "\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":{"
                + "\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
                + "\"x-kubernetes-validations\":[{\"rule\":\"self.a >\"},"
                + "{\"rule\":\"self.a.nope()\"},{\"rule\":\"self.a > 1\","
                + "\"messageExpression\":\"1\"}]}}}}}]}}",
            Map.of());

    assertThat(refused.code()).as(String.valueOf(refused.body())).isEqualTo(422);
    JsonNode causes = refused.body().path("details").path("causes");
    String rules = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";
    assertThat(causes).hasSize(3);
    assertThat(causes.get(0).path("field").asText()).isEqualTo(rules + "[0].rule");
    assertThat(causes.get(0).path("message").asText())
        .isEqualTo(
            "Invalid value: {\"Rule\":\"self.a \\u003e\",\"Message\":\"\",\"MessageExpression\":"
                + "\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation"
                + " failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting"
                + " {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT,"
                + " NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a >\n | ........^");
    assertThat(causes.get(1).path("field").asText()).isEqualTo(rules + "[1].rule");
    assertThat(causes.get(1).path("message").asText())
        .isEqualTo(
            "Invalid value: {\"Rule\":\"self.a.nope()\",\"Message\":\"\",\"MessageExpression\":"
                + "\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation"
                + " failed: ERROR: <input>:1:12: undeclared reference to 'nope' (in container '')\n"
                + " | self.a.nope()\n | ...........^");
    assertThat(causes.get(2).path("field").asText()).isEqualTo(rules + "[2].messageExpression");
    assertThat(causes.get(2).path("message").asText())
        .isEqualTo(
            "Invalid value: {\"Rule\":\"self.a \\u003e 1\",\"Message\":\"\",\"MessageExpression\":"
                + "\"1\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}:"
                + " messageExpression must evaluate to a string");
    assertThat(refused.body().path("message").asText())
        .startsWith(
            "CustomResourceDefinition.apiextensions.k8s.io \"brokens.conformance.podset.io\" is"
                + " invalid: ["
                + rules
                + "[0].rule: Invalid value: ");
  }
}
