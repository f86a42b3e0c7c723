package io.podset.testkit.conformance;

import static io.podset.testkit.conformance.CelRulesConformanceTest.causes;
import static io.podset.testkit.conformance.CelRulesConformanceTest.crd;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CEL rules are type-checked against the schema when a CRD is written, as kube-apiserver does:
 * {@code self} has the type of its schema node (objects with their properties, maps, lists, the
 * string formats, int-or-string as dyn), so a rule naming an undefined field, comparing mismatched
 * types or not returning a bool refuses the CRD with 422. Refused CRDs are posted with dry run.
 */
class CelTypeCheckConformanceTest extends ConformanceTestBase {

  private static final String RULES =
      "FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";

  private static final String NO_OPTIONS =
      "\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\","
          + "\"OptionalOldSelf\":null}";

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

  private Raw dryRunCrd(String properties, String rules) {
    return raw(
        "POST",
        CRDS + "?dryRun=All",
        "application/json",
        crd("typeds", "Typed", properties, rules),
        Map.of());
  }

  private static String rule(String rule) {
    return "{\"Rule\":\"" + rule + "\"," + NO_OPTIONS;
  }

  @Test
  void ruleNamingAnUndefinedField_isRefused() {
    Raw refused = dryRunCrd("\"a\":{\"type\":\"integer\"}", "{\"rule\":\"self.b == 1\"}");

    assertThat(causes(refused))
        .containsExactly(
            RULES
                + "[0].rule: Invalid value: "
                + rule("self.b == 1")
                + ": compilation failed: ERROR: <input>:1:5: undefined field 'b'\n"
                + " | self.b == 1\n"
                + " | ....^");
  }

  @Test
  void ruleComparingMismatchedTypes_isRefused() {
    Raw refused =
        dryRunCrd(
            "\"a\":{\"type\":\"integer\"},\"s\":{\"type\":\"string\"},"
                + "\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}},"
                + "\"l\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
            "{\"rule\":\"self.a == self.s\"},{\"rule\":\"self.s > 1\"},"
                + "{\"rule\":\"self.m.x == 'x'\"},{\"rule\":\"self.l[0] == 1\"}");

    assertThat(causes(refused))
        .containsExactly(
            RULES
                + "[0].rule: Invalid value: "
                + rule("self.a == self.s")
                + ": compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_'"
                + " applied to '(int, string)'\n | self.a == self.s\n | .......^",
            RULES
                + "[1].rule: Invalid value: "
                + rule("self.s \\u003e 1")
                + ": compilation failed: ERROR: <input>:1:8: found no matching overload for '_>_'"
                + " applied to '(string, int)'\n | self.s > 1\n | .......^",
            RULES
                + "[2].rule: Invalid value: "
                + rule("self.m.x == 'x'")
                + ": compilation failed: ERROR: <input>:1:10: found no matching overload for"
                + " '_==_' applied to '(int, string)'\n | self.m.x == 'x'\n | .........^",
            RULES
                + "[3].rule: Invalid value: "
                + rule("self.l[0] == 1")
                + ": compilation failed: ERROR: <input>:1:11: found no matching overload for"
                + " '_==_' applied to '(string, int)'\n | self.l[0] == 1\n | ..........^");
  }

  @Test
  void ruleThatIsNotABool_andMessageExpressionThatIsNotAString_areRefused() {
    Raw refused =
        dryRunCrd(
            "\"a\":{\"type\":\"integer\"},\"p\":{\"x-kubernetes-int-or-string\":true}",
            "{\"rule\":\"self.a + 1\"},{\"rule\":\"self.p\"},"
                + "{\"rule\":\"true\",\"messageExpression\":\"self.p\"}");

    assertThat(causes(refused))
        .containsExactly(
            RULES
                + "[0].rule: Invalid value: "
                + rule("self.a + 1")
                + ": cel expression must evaluate to a bool",
            RULES
                + "[1].rule: Invalid value: "
                + rule("self.p")
                + ": cel expression must evaluate"
                + " to a bool",
            RULES
                + "[2].messageExpression: Invalid value: {\"Rule\":\"true\",\"Message\":\"\","
                + "\"MessageExpression\":\"self.p\",\"Reason\":null,\"FieldPath\":\"\","
                + "\"OptionalOldSelf\":null}: messageExpression must evaluate to a string");
  }

  @Test
  void optionalOldSelfOnARuleWithoutOldSelf_andRulesOnAnUntypedNode_areRefused() {
    Raw refused =
        dryRunCrd(
            "\"a\":{\"type\":\"integer\"},\"u\":{\"x-kubernetes-preserve-unknown-fields\":true,"
                + "\"x-kubernetes-validations\":[{\"rule\":\"self.x == 1\"}]}",
            "{\"rule\":\"self.a > 0\",\"optionalOldSelf\":true},"
                + "{\"rule\":\"oldSelf.value().a == 'x'\",\"optionalOldSelf\":true}");

    String optional =
        "{\"Rule\":\"oldSelf.value().a == 'x'\",\"Message\":\"\","
            + "\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":true}";
    assertThat(causes(refused))
        .containsExactly(
            RULES
                + "[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not"
                + " used in rule",
            RULES
                + "[1].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not"
                + " used in rule",
            RULES
                + "[1].rule: Invalid value: "
                + optional
                + ": compilation failed: ERROR: <input>:1:19: found no matching overload for"
                + " '_==_' applied to '(int, string)'\n | oldSelf.value().a == 'x'\n"
                + " | ..................^",
            "InternalError spec.validation.openAPIV3Schema.properties[spec].properties[u]"
                + ".x-kubernetes-validations: Internal error: internal error: failed to construct"
                + " type information for x-kubernetes-validations rules: unable to convert"
                + " structural schema to CEL declarations");
  }

  @Test
  void formatsUnknownFieldsEmbeddedResourcesAndListFunctions_areTypedAsOnKubernetes() {
    Raw refused =
        dryRunCrd(
            "\"b\":{\"type\":\"string\",\"format\":\"byte\"},"
                + "\"d\":{\"type\":\"string\",\"format\":\"date\"},"
                + "\"u\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true},"
                + "\"e\":{\"type\":\"object\",\"x-kubernetes-embedded-resource\":true,"
                + "\"properties\":{\"x\":{\"type\":\"integer\"}}},"
                + "\"w\":{\"type\":\"array\",\"maxItems\":3,"
                + "\"items\":{\"type\":\"string\",\"maxLength\":3}}",
            "{\"rule\":\"self.b == 'x'\"},{\"rule\":\"self.d == 'x'\"},{\"rule\":\"has(self.u.x)\"},"
                + "{\"rule\":\"self.e.kind == 'K' && self.e.metadata.name == 'n' && self.e.x == 1\"},"
                + "{\"rule\":\"self.e.metadata.labels == 1\"},{\"rule\":\"self.w.sum() == 'a'\"}");

    assertThat(causes(refused))
        .containsExactly(
            RULES
                + "[0].rule: Invalid value: "
                + rule("self.b == 'x'")
                + ": compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_'"
                + " applied to '(bytes, string)'\n | self.b == 'x'\n | .......^",
            RULES
                + "[1].rule: Invalid value: "
                + rule("self.d == 'x'")
                + ": compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_'"
                + " applied to '(timestamp, string)'\n | self.d == 'x'\n | .......^",
            RULES
                + "[2].rule: Invalid value: "
                + rule("has(self.u.x)")
                + ": compilation failed: ERROR: <input>:1:4: undefined field 'x'\n"
                + " | has(self.u.x)\n | ...^",
            RULES
                + "[4].rule: Invalid value: "
                + rule("self.e.metadata.labels == 1")
                + ": compilation failed: ERROR: <input>:1:16: undefined field 'labels'\n"
                + " | self.e.metadata.labels == 1\n | ...............^",
            RULES
                + "[5].rule: Invalid value: "
                + rule("self.w.sum() == 'a'")
                + ": compilation failed: ERROR: <input>:1:11: found no matching overload for 'sum'"
                + " applied to 'list(string).()'\n | self.w.sum() == 'a'\n | ..........^");
  }

  /**
   * The same rule over a list without {@code maxItems} of strings without {@code maxLength} is
   * refused by the real server (estimated cost more than 100x its budget); the fake has no cost
   * estimator and accepts it, so only the bounded form is a conformance check.
   */
  @Test
  void quadraticRuleOverBoundedLists_isAccepted() {
    Raw accepted =
        dryRunCrd(
            "\"l\":{\"type\":\"array\",\"maxItems\":10,"
                + "\"items\":{\"type\":\"string\",\"maxLength\":10}}",
            "{\"rule\":\"self.l.all(x, self.l.all(y, x == y))\"}");

    assertThat(accepted.code()).as(String.valueOf(accepted.body())).isEqualTo(201);
  }

  @Test
  void propertyNamesEscapedOrNot_andNestedDates_areTypedAndEvaluated() {
    String crd =
        crd(
            "escapes",
            "Escape",
            "\"a-b\":{\"type\":\"integer\"},\"if\":{\"type\":\"integer\"},"
                + "\"namespace\":{\"type\":\"string\"},"
                + "\"at\":{\"type\":\"string\",\"format\":\"date\"}",
            "{\"rule\":\"self.a__dash__b < self.__if__ && self.a__dash__b < self.if\","
                + "\"message\":\"a-b below if\"},"
                + "{\"rule\":\"self.namespace == self.__namespace__ && self.namespace != 'x'\","
                + "\"message\":\"namespace is not x\"},"
                + "{\"rule\":\"!has(self.at) || self.at < timestamp('2030-01-01T00:00:00Z')\","
                + "\"message\":\"at before 2030\"}");
    Raw crdCreated = raw("POST", CRDS, "application/json", crd, Map.of());
    assertThat(crdCreated.code()).as(String.valueOf(crdCreated.body())).isEqualTo(201);
    String path = "/apis/conformance.podset.io/v1/namespaces/" + ns + "/escapes";
    String object =
        "{\"apiVersion\":\"conformance.podset.io/v1\",\"kind\":\"Escape\","
            + "\"metadata\":{\"name\":\"NAME\"},\"spec\":SPEC}";
    String refused =
        object
            .replace("NAME", "e2")
            .replace("SPEC", "{\"a-b\":3,\"if\":2,\"namespace\":\"x\",\"at\":\"2031-05-01\"}");
    // A real server serves a new CRD a moment after its create.
    Raw answer =
        io.podset.testkit.Eventually.await(
            "escapes are served",
            () -> raw("POST", path, "application/json", refused, Map.of()),
            r -> r.code() != 404);

    assertThat(causes(answer))
        .containsExactly(
            "FieldValueInvalid spec: Invalid value: \"object\": a-b below if",
            "FieldValueInvalid spec: Invalid value: \"object\": at before 2030",
            "FieldValueInvalid spec: Invalid value: \"object\": namespace is not x");
    String accepted =
        object
            .replace("NAME", "e1")
            .replace("SPEC", "{\"a-b\":1,\"if\":2,\"namespace\":\"n\",\"at\":\"2029-05-01\"}");
    Raw created = raw("POST", path, "application/json", accepted, Map.of());
    assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
  }
}
