package io.podset.testkit.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrozenJsonTest {

  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"a",
       "labels":{"app":"web","tier":"front"},"annotations":{},
       "managedFields":[{"manager":"kubelet","fieldsV1":{"f:status":{".":{},"f:phase":{}}}}]},
       "spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}]}],
       "nodeName":null,"priority":0,"enableServiceLinks":true},
       "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}
      """;

  private static ObjectNode parse(String json) throws Exception {
    return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void frozenCopy_readsComparesAndSerializesAsTheOriginal() throws Exception {
    ObjectNode pod = parse(POD);

    ObjectNode frozen = FrozenJson.freeze(pod);

    assertThat(frozen).isNotSameAs(pod).isEqualTo(pod);
    assertThat(pod).isEqualTo(frozen);
    assertThat(frozen.hashCode()).isEqualTo(pod.hashCode());
    assertThat(new String(Json.bytes(frozen), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(pod), StandardCharsets.UTF_8));
    assertThat(Json.at(frozen, "spec.containers").get(0).path("image").asText())
        .isEqualTo("nginx:1.27");
    assertThat(frozen.path("metadata").path("labels").properties())
        .extracting(e -> e.getKey())
        .containsExactly("app", "tier");
    assertThat(frozen.path("metadata").has("labels")).isTrue();
    assertThat(frozen.path("metadata").has("missing")).isFalse();
    assertThat(frozen.path("spec").get("nodeName").isNull()).isTrue();
    assertThat(FrozenJson.isFrozen(frozen)).isTrue();
    assertThat(FrozenJson.freeze(frozen)).isSameAs(frozen);
  }

  @Test
  void writingToAFrozenTree_throws_butADeepCopyIsAnOrdinaryTree() throws Exception {
    ObjectNode frozen = FrozenJson.freeze(parse(POD));
    ObjectNode metadata = (ObjectNode) frozen.get("metadata");
    ArrayNode containers = (ArrayNode) frozen.path("spec").get("containers");

    assertThatThrownBy(() -> metadata.put("resourceVersion", "7"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> metadata.remove("labels"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((ObjectNode) metadata.get("annotations")).put("a", "b"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> containers.add(1)).isInstanceOf(UnsupportedOperationException.class);

    ObjectNode copy = frozen.deepCopy();
    ((ObjectNode) copy.get("metadata")).put("resourceVersion", "7");
    ((ObjectNode) copy.path("metadata").get("annotations")).put("a", "b");
    ((ArrayNode) copy.path("spec").get("containers")).add(1);

    assertThat(FrozenJson.isFrozen(copy)).isFalse();
    assertThat(copy.path("metadata").path("resourceVersion").asText()).isEqualTo("7");
    assertThat(frozen.path("metadata").has("resourceVersion")).isFalse();
    assertThat(frozen).isEqualTo(parse(POD));
  }

  @Test
  void repeatedNamesAndShortTexts_areSharedBetweenFrozenTrees() throws Exception {
    ObjectNode first = FrozenJson.freeze(parse(POD));
    ObjectNode second = FrozenJson.freeze(parse(POD));

    JsonNode image1 = first.path("spec").path("containers").get(0).get("image");
    JsonNode image2 = second.path("spec").path("containers").get(0).get("image");
    assertThat(image1).isSameAs(image2);
    // The empty annotations: one shared empty object.
    assertThat(first.get("metadata").get("annotations"))
        .isSameAs(second.get("metadata").get("annotations"));
    String key1 = first.path("status").properties().iterator().next().getKey();
    String key2 = second.path("status").properties().iterator().next().getKey();
    assertThat(key1).isEqualTo("phase").isSameAs(key2);
  }

  @Test
  void equalParts_areOneFrozenCopy_butEachObjectIsItsOwn() throws Exception {
    ObjectNode first = FrozenJson.freeze(parse(POD));
    ObjectNode other = parse(POD);
    ((ObjectNode) other.get("metadata")).put("name", "web-1");
    ObjectNode second = FrozenJson.freeze(other);

    assertThat(second).isNotSameAs(first);
    assertThat(second.get("metadata")).isNotSameAs(first.get("metadata"));
    for (String part : List.of("spec", "status")) {
      assertThat(second.get(part)).as(part).isSameAs(first.get(part));
    }
    assertThat(second.path("metadata").get("labels"))
        .isSameAs(first.path("metadata").get("labels"));
    JsonNode fields = first.path("metadata").path("managedFields").get(0).get("fieldsV1");
    assertThat(second.path("metadata").path("managedFields").get(0).get("fieldsV1"))
        .isSameAs(fields);
    // Shared parts still compare, hash and serialize as ordinary trees.
    assertThat(second).isEqualTo(other);
    assertThat(second.hashCode()).isEqualTo(other.hashCode());
    assertThat(fields.hashCode()).isEqualTo(fields.deepCopy().hashCode());
    assertThat(new String(Json.bytes(second), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(other), StandardCharsets.UTF_8));
  }

  @Test
  void largeObjects_keepEveryFieldInOrder() throws Exception {
    ObjectNode data = Json.object();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 3 * FrozenJson.MAX_ARRAY_FIELDS; i++) {
      keys.add("key-" + (100 - i));
      data.put("key-" + (100 - i), "value-" + i);
    }
    ObjectNode configMap = Json.object();
    configMap.set("data", data);

    ObjectNode frozen = FrozenJson.freeze(configMap);

    JsonNode frozenData = frozen.get("data");
    assertThat(frozen).isEqualTo(configMap);
    assertThat(frozenData.properties()).extracting(e -> e.getKey()).containsExactlyElementsOf(keys);
    for (int i = 0; i < keys.size(); i++) {
      assertThat(frozenData.get(keys.get(i)).asText()).isEqualTo("value-" + i);
    }
    assertThatThrownBy(() -> ((ObjectNode) frozenData).put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
