package io.podset.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class AppliedObjectsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  @Test
  void holds_whenActualHasEveryDesiredFieldAndServerDefaults() {
    JsonNode desired =
        json(
            "{'spec':{'replicas':2,'template':{'spec':{'containers':[{'name':'web','image':'nginx'}]}}}}");
    JsonNode actual =
        json(
            "{'spec':{'replicas':2,'revisionHistoryLimit':10,'template':{'spec':{'restartPolicy':'Always',"
                + "'containers':[{'name':'web','image':'nginx','imagePullPolicy':'Always'}]}}},"
                + "'status':{'replicas':2}}");
    assertThat(AppliedObjects.holds(actual, desired)).isTrue();
  }

  @Test
  void holdsNot_whenAnAppliedFieldDrifted() {
    JsonNode desired = json("{'spec':{'replicas':2}}");
    assertThat(AppliedObjects.holds(json("{'spec':{'replicas':3}}"), desired)).isFalse();
    assertThat(AppliedObjects.holds(json("{'spec':{}}"), desired)).isFalse();
    assertThat(AppliedObjects.holds(json("{'spec':{'replicas':'2'}}"), desired)).isFalse();
  }

  @Test
  void quantities_compareByAmount_asTheServerNormalisesThem() {
    assertThat(AppliedObjects.holds(json("{'cpu':'500m'}"), json("{'cpu':'0.5'}"))).isTrue();
    assertThat(AppliedObjects.holds(json("{'memory':'1Gi'}"), json("{'memory':'1024Mi'}")))
        .isTrue();
    assertThat(AppliedObjects.holds(json("{'cpu':'500m'}"), json("{'cpu':'0.6'}"))).isFalse();
    // Not quantities: text must be equal.
    assertThat(AppliedObjects.holds(json("{'image':'nginx:1'}"), json("{'image':'nginx:1.0'}")))
        .isFalse();
  }

  @Test
  void numbers_compareByValue() {
    assertThat(AppliedObjects.holds(json("{'n':1}"), json("{'n':1.0}"))).isTrue();
  }

  @Test
  void zeroValues_theServerOmits_equalAbsentFields() {
    JsonNode desired =
        json("{'spec':{'paused':false,'minReadySeconds':0,'labels':{},'args':[],'name':''}}");
    assertThat(AppliedObjects.holds(json("{'spec':{}}"), desired)).isTrue();
    // ... but a zero value is still a value the actual object must not contradict.
    assertThat(AppliedObjects.holds(json("{'spec':{'minReadySeconds':5}}"), desired)).isFalse();
    assertThat(
            AppliedObjects.holds(json("{'spec':{'replicas':3}}"), json("{'spec':{'replicas':0}}")))
        .isFalse();
  }

  @Test
  void namedItems_matchByName_otherManagersItemsAllowed() {
    JsonNode desired = json("{'env':[{'name':'A','value':'1'}]}");
    assertThat(
            AppliedObjects.holds(
                json("{'env':[{'name':'B','value':'2'},{'name':'A','value':'1'}]}"), desired))
        .isTrue();
    assertThat(AppliedObjects.holds(json("{'env':[{'name':'A','value':'2'}]}"), desired)).isFalse();
    assertThat(AppliedObjects.holds(json("{'env':[{'name':'B','value':'1'}]}"), desired)).isFalse();
  }

  @Test
  void otherLists_matchItemByItem() {
    assertThat(AppliedObjects.holds(json("{'args':['a','b']}"), json("{'args':['a','b']}")))
        .isTrue();
    assertThat(AppliedObjects.holds(json("{'args':['b','a']}"), json("{'args':['a','b']}")))
        .isFalse();
    assertThat(AppliedObjects.holds(json("{'args':['a','b','c']}"), json("{'args':['a','b']}")))
        .isFalse();
  }

  @Test
  void stamp_ignoresServerMetadataAndStatus_andChangesWithAnyDesiredField() {
    ObjectNode a =
        (ObjectNode)
            json(
                "{'metadata':{'name':'x','resourceVersion':'5','uid':'u','annotations':{'"
                    + AppliedObjects.ANNOTATION
                    + "':'old'}},'spec':{'b':1,'a':2},'status':{'s':1}}");
    ObjectNode b = (ObjectNode) json("{'spec':{'a':2,'b':1},'metadata':{'name':'x'}}");
    assertThat(AppliedObjects.stamp(a)).isEqualTo(AppliedObjects.stamp(b));
    assertThat(a.has("status")).isFalse();
    assertThat(a.get("metadata").has("resourceVersion")).isFalse();
    ObjectNode dropped = (ObjectNode) json("{'spec':{'a':2},'metadata':{'name':'x'}}");
    assertThat(AppliedObjects.stamp(dropped)).isNotEqualTo(AppliedObjects.stamp(b.deepCopy()));
  }
}
