package io.podset.testkit.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.tables.Tables;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PatchesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text.replace('\'', '"'));
  }

  @Test
  void mergePatch_nullRemovesAndObjectsMergeAndArraysReplace() throws Exception {
    JsonNode result =
        Patches.mergePatch(
            json("{'a':1,'b':{'c':2,'d':3},'e':[1,2]}"), json("{'a':null,'b':{'c':9},'e':[3]}"));
    assertThat(result).isEqualTo(json("{'b':{'c':9,'d':3},'e':[3]}"));
  }

  @Test
  void jsonPatch_allOperations() throws Exception {
    JsonNode result =
        Patches.jsonPatch(
            json("{'a':{'b':1},'list':[1,2,3]}"),
            json(
                "[{'op':'add','path':'/list/1','value':9},{'op':'add','path':'/list/-','value':4},"
                    + "{'op':'remove','path':'/list/0'},{'op':'replace','path':'/a/b','value':2},"
                    + "{'op':'copy','from':'/a','path':'/c'},{'op':'move','from':'/c/b','path':'/d'},"
                    + "{'op':'test','path':'/d','value':2},{'op':'add','path':'/x~1y','value':true}]"));
    assertThat(result).isEqualTo(json("{'a':{'b':2},'list':[9,2,3,4],'c':{},'d':2,'x/y':true}"));
  }

  @Test
  void jsonPatch_missingPathOrFailedTest_is422_andMalformed_is400() throws Exception {
    assertThatThrownBy(() -> Patches.jsonPatch(json("{}"), json("[{'op':'remove','path':'/x'}]")))
        .isInstanceOfSatisfying(StatusError.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(
            () -> Patches.jsonPatch(json("{'a':1}"), json("[{'op':'test','path':'/a','value':2}]")))
        .isInstanceOfSatisfying(StatusError.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(() -> Patches.jsonPatch(json("{}"), json("{'op':'add'}")))
        .isInstanceOfSatisfying(StatusError.class, e -> assertThat(e.code()).isEqualTo(400));
    assertThatThrownBy(() -> Patches.jsonPatch(json("{}"), json("[{'op':'jump','path':'/a'}]")))
        .isInstanceOfSatisfying(StatusError.class, e -> assertThat(e.code()).isEqualTo(400));
  }

  @Test
  void age_formatsLikeKubectl() {
    Instant now = Instant.parse("2026-01-01T10:00:00Z");
    assertThat(Tables.age("2026-01-01T09:59:55Z", now)).isEqualTo("5s");
    assertThat(Tables.age("2026-01-01T09:56:40Z", now)).isEqualTo("3m20s");
    assertThat(Tables.age("2026-01-01T07:00:00Z", now)).isEqualTo("3h");
    assertThat(Tables.age("2025-12-30T06:00:00Z", now)).isEqualTo("2d4h");
  }
}
