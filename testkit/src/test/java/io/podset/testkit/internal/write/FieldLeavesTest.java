package io.podset.testkit.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.admission.BuiltinResources;
import io.podset.testkit.internal.admission.ServiceAddresses;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldLeavesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static final ResourceType PODS =
      BuiltinResources.all(new ServiceAddresses(new ObjectStore(10))).stream()
          .filter(t -> t.plural().equals("pods"))
          .findFirst()
          .orElseThrow();

  private static ObjectNode json(String text) throws Exception {
    return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
  }

  /** Every leaf's value is what looking its path up finds, identity of missing nodes included. */
  private static void assertValuesAsLookedUp(ObjectNode object, boolean status) {
    Map<List<String>, JsonNode> leaves = FieldLeaves.of(PODS, object, status);
    assertThat(leaves).isNotEmpty();
    leaves.forEach(
        (path, value) ->
            assertThat(value).as("%s", path).isEqualTo(FieldPaths.valueAt(object, path)));
  }

  /** The path of a field of container c's port 80. */
  private static List<String> portLeaf(String field) {
    return List.of(
        "f:spec",
        "f:containers",
        "k:{\"name\":\"c\"}",
        "f:ports",
        "k:{\"containerPort\":80}",
        field);
  }

  @Test
  void of_pod_pathsInDocumentOrderWithTheirValues() throws Exception {
    ObjectNode pod =
        json(
            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','labels':{'app':'web'},"
                + "'finalizers':['x/y']},'spec':{'containers':[{'name':'c','image':'i',"
                + "'ports':[{'containerPort':80,'protocol':'TCP'}]}],'tolerations':[{'key':'k'}]},"
                + "'status':{'phase':'Running'}}");

    Map<List<String>, JsonNode> leaves = FieldLeaves.of(PODS, pod, false);

    assertThat(leaves.keySet())
        .containsExactly(
            List.of("f:metadata", "f:labels", "f:app"),
            List.of("f:metadata", "f:finalizers", "v:\"x/y\""),
            List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:name"),
            List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:image"),
            portLeaf("f:containerPort"),
            portLeaf("f:protocol"),
            List.of("f:spec", "f:tolerations"));
    assertValuesAsLookedUp(pod, false);
    assertThat(FieldLeaves.of(PODS, pod, true).keySet())
        .containsExactly(List.of("f:status", "f:phase"));
  }

  @Test
  void of_duplicateKeys_valuesOfTheFirstElementAsLookupFindsThem() throws Exception {
    // Two env entries named A: the second's fields are looked up in the first (valueFrom is
    // missing there), as FieldPaths.valueAt finds the first element with the key.
    ObjectNode pod =
        json(
            "{'spec':{'containers':[{'name':'c','env':[{'name':'A','value':'1'},"
                + "{'name':'A','valueFrom':{'fieldRef':{'fieldPath':'x'}}}]},"
                + "{'name':'c','image':'second'}]}}");

    Map<List<String>, JsonNode> leaves = FieldLeaves.of(PODS, pod, false);

    assertThat(
            leaves
                .get(
                    List.of(
                        "f:spec",
                        "f:containers",
                        "k:{\"name\":\"c\"}",
                        "f:env",
                        "k:{\"name\":\"A\"}",
                        "f:valueFrom",
                        "f:fieldRef",
                        "f:fieldPath"))
                .isMissingNode())
        .isTrue();
    assertThat(
            leaves
                .get(List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:image"))
                .isMissingNode())
        .isTrue();
    assertValuesAsLookedUp(pod, false);
  }

  @Test
  void of_keysThatNeedEscapingOrDoNotSurviveTheirJson_asLookupFindsThem() throws Exception {
    ObjectNode pod =
        json(
            "{'spec':{'containers':[{'name':'q\\'uote\\\\ \u00e9','image':'i'}],"
                + "'volumes':[{'name':'v','emptyDir':{}}]}}");
    ObjectNode port = JSON.createObjectNode();
    port.set("containerPort", LongNode.valueOf(8080));
    port.put("protocol", "UDP");
    ((ObjectNode) pod.path("spec").path("containers").get(0)).putArray("ports").add(port);

    Map<List<String>, JsonNode> leaves = FieldLeaves.of(PODS, pod, false);

    String name = "k:" + FieldPaths.text(json("{'name':'q\\'uote\\\\ \u00e9'}"));
    assertThat(leaves).containsKey(List.of("f:spec", "f:containers", name, "f:image"));
    // A long key reads back from its JSON as an int, which equals no long: nothing found.
    assertThat(
            leaves
                .get(
                    List.of(
                        "f:spec",
                        "f:containers",
                        name,
                        "f:ports",
                        "k:{\"containerPort\":8080}",
                        "f:protocol"))
                .isMissingNode())
        .isTrue();
    assertThat(leaves)
        .containsKey(List.of("f:spec", "f:volumes", "k:{\"name\":\"v\"}", "f:emptyDir"));
    assertValuesAsLookedUp(pod, false);
  }
}
