package io.podset.testkit.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.ResourceType;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManagedFieldsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

  private static final ResourceType PODS = FieldLeavesTest.PODS;

  private static ObjectNode json(String text) throws Exception {
    return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
  }

  private static ObjectNode pod(String annotations, String spec) throws Exception {
    return json(
        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','labels':{'app':'web'},"
            + "'annotations':"
            + annotations
            + ",'managedFields':["
            + "{'manager':'a','operation':'Update','apiVersion':'v1','time':'2026-01-01T00:00:00Z',"
            + "'fieldsType':'FieldsV1','fieldsV1':{'f:metadata':{'f:labels':{'.':{},'f:app':{}}}}},"
            + "{'manager':'b','operation':'Update','apiVersion':'v1','time':'2026-01-02T00:00:00Z',"
            + "'fieldsType':'FieldsV1','fieldsV1':{'f:spec':{'f:x':{}}}}]},'spec':"
            + spec
            + "}");
  }

  private static JsonNode entry(ObjectNode object, String manager) {
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry;
      }
    }
    return null;
  }

  @Test
  void recordUpdate_untouchedEntries_renderedAsBefore() throws Exception {
    ObjectNode current = pod("{}", "{'x':1}");
    ObjectNode next = pod("{'n':'1'}", "{'x':1}");

    ManagedFields.recordUpdate(PODS, current, next, "c", false, NOW);

    // Entry a's "." marker goes, as every entry's always did when rendered again; entry b is kept
    // as it was; c owns what it wrote.
    assertThat(entry(next, "a").path("fieldsV1"))
        .isEqualTo(json("{'f:metadata':{'f:labels':{'f:app':{}}}}"));
    assertThat(entry(next, "b")).isEqualTo(entry(current, "b"));
    assertThat(entry(next, "c").path("fieldsV1"))
        .isEqualTo(json("{'f:metadata':{'f:annotations':{'f:n':{}}}}"));
    assertThat(entry(next, "c").path("time").asText()).isEqualTo("2026-12-02T03:00:00Z");
  }

  @Test
  void recordUpdate_changedFieldOfAnotherManager_movesToTheWriter() throws Exception {
    ObjectNode current = pod("{}", "{'x':1}");
    ObjectNode next = pod("{}", "{'x':2}");

    ManagedFields.recordUpdate(PODS, current, next, "c", false, NOW);

    assertThat(entry(next, "b")).isNull();
    assertThat(entry(next, "c").path("fieldsV1")).isEqualTo(json("{'f:spec':{'f:x':{}}}"));
    assertThat(entry(next, "a")).isNotNull();
  }
}
