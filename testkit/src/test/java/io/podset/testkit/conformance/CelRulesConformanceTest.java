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
  static List<String> causes(Raw raw) {
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

  /**
   * POSTs a CRD {@code plural.conformance.podset.io} whose {@code spec} has an integer {@code a}
   * and the {@code x-kubernetes-validations} {@code rules} (JSON array members).
   */
  private Raw createCrdWithRules(String plural, String kind, String rules) {
    return raw(
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        "application/json",
        crd(plural, kind, "\"a\":{\"type\":\"integer\"}", rules),
        Map.of());
  }

  /**
   * A CRD {@code plural.conformance.podset.io} whose {@code spec} has the {@code properties} and
   * the {@code x-kubernetes-validations} {@code rules} (JSON object members and array members).
   */
  static String crd(String plural, String kind, String properties, String rules) {
    return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
        + "\"metadata\":{\"name\":\""
        + plural
        + ".conformance.podset.io\"},\"spec\":{\"group\":\"conformance.podset.io\","
        + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\""
        + plural
        + "\",\"kind\":\""
        + kind
        + "\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
        + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{"
        + "\"spec\":{\"type\":\"object\",\"properties\":{"
        + properties
        + "},\"x-kubernetes-validations\":["
        + rules
        + "]}}}}}]}}";
  }

  @Test
  void crdWhoseRulesDoNotCompile_isRefused() {
    Raw refused =
        createCrdWithRules(
            "brokens",
            "Broken",
            "{\"rule\":\"self.a >\"},{\"rule\":\"self.a.nope()\"},{\"rule\":\"self.a > 1\",\"messageExpression\":\"1\"}");

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

  @Test
  void urlQuantityRegexStringAndListFunctions() {
    assertCreated(
        post(
            "funcs-ok",
            "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3,"
                + "\"link\":\"https://example.com:8443/a%20b?q=1&q=2\",\"size\":\"1\","
                + "\"digits\":\"a12b3\",\"levels\":[1,2,1]}"));

    assertThat(
            causes(
                post(
                    "funcs",
                    "{\"name\":\"g-a\",\"minReplicas\":1,\"maxReplicas\":3,"
                        + "\"link\":\"https://example.com/a%20b?q=1&q=2\",\"size\":\"2\","
                        + "\"digits\":\"a12b\",\"levels\":[1,2,3]}")))
        .containsExactly(
            "FieldValueInvalid spec.digits: Invalid value: \"string\": digits are not like a12b3",
            "FieldValueInvalid spec.levels: Invalid value: \"array\": levels are not like [1, 2,"
                + " 1]",
            "FieldValueInvalid spec.link: Invalid value: \"string\": link is not the example",
            "FieldValueInvalid spec.size: Invalid value: \"string\": size is not 0 or 1");
  }

  @Test
  void unchangedValues_areNotJudgedAgainByANewRule() throws Exception {
    String crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    String body =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
            + "\"metadata\":{\"name\":\"ratchets.conformance.podset.io\"},\"spec\":{"
            + "\"group\":\"conformance.podset.io\",\"scope\":\"Namespaced\","
            + "\"names\":{\"plural\":\"ratchets\",\"kind\":\"Ratchet\"},\"versions\":[{"
            + "\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{"
            + "\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":{"
            + "\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"RULE},"
            + "\"b\":{\"type\":\"integer\"}}}}}}}]}}";
    raw("POST", crd, "application/json", body.replace("RULE", ""), Map.of());
    String path = "/apis/conformance.podset.io/v1/namespaces/" + ns + "/ratchets";
    String object =
        "{\"apiVersion\":\"conformance.podset.io/v1\",\"kind\":\"Ratchet\","
            + "\"metadata\":{\"name\":\"NAME\"},\"spec\":{\"a\":5,\"b\":1}}";
    io.podset.testkit.Eventually.await(
        "ratchets are served",
        () -> raw("POST", path, "application/json", object.replace("NAME", "r1"), Map.of()).code(),
        code -> code == 201 || code == 409);
    Raw updated =
        raw(
            "PATCH",
            crd + "/ratchets.conformance.podset.io",
            "application/merge-patch+json",
            body.replace(
                "RULE",
                ",\"x-kubernetes-validations\":[{\"rule\":\"self < 3\",\"message\":\"a below"
                    + " 3\"}]"),
            Map.of());
    assertThat(updated.code()).as(String.valueOf(updated.body())).isEqualTo(200);
    // The new rule is in force once a new object is refused by it (a real server reloads the
    // definition a moment after the update).
    String fresh = object.replace("NAME", "r2");
    io.podset.testkit.Eventually.await(
        "the new rule is in force",
        () -> raw("POST", path + "?dryRun=All", "application/json", fresh, Map.of()).code(),
        code -> code == 422);

    String r1 = path + "/r1";
    Raw otherField =
        raw("PATCH", r1, "application/merge-patch+json", "{\"spec\":{\"b\":2}}", Map.of());
    assertThat(otherField.code()).as(String.valueOf(otherField.body())).isEqualTo(200);
    Raw changed =
        raw("PATCH", r1, "application/merge-patch+json", "{\"spec\":{\"a\":6}}", Map.of());
    assertThat(causes(changed))
        .containsExactly("FieldValueInvalid spec.a: Invalid value: \"integer\": a below 3");
  }

  @Test
  void crdWithAFieldPathToNoField_isRefusedBeforeItsRulesCompile() {
    Raw refused =
        createCrdWithRules(
            "paths",
            "Path",
            "{\"rule\":\"self.a >\"},{\"rule\":\"self.a == 1\",\"fieldPath\":\".a\"},{\"rule\":\"self.a == 1\",\"fieldPath\":\".b\"}");

    assertThat(causes(refused))
        .containsExactly(
            "FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec]"
                + ".x-kubernetes-validations[2].fieldPath: Invalid value: \".b\": must be a valid"
                + " path");
  }
}
