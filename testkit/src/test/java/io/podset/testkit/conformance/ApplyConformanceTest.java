package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Field ownership as server-side apply and ordinary writes share it: a create or patch with a field
 * manager records an {@code Update} entry, so applying a value it set conflicts with it; a manager
 * that stops applying a field removes it; an ordinary write that changes an applied field takes it
 * over. Compared with kube-apiserver 1.34 (its messages included).
 */
class ApplyConformanceTest extends ConformanceTestBase {

  private static final String APPLY = "application/apply-patch+yaml";

  private String configMaps() {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private Raw apply(String name, String manager, String data) {
    return raw(
        "PATCH",
        configMaps() + "/" + name + "?fieldManager=" + manager,
        APPLY,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n" + data,
        Map.of());
  }

  /** Each entry as {@code manager/operation: leaf paths} (FieldsV1 without the "." markers). */
  private static List<String> ownership(JsonNode object) {
    List<String> entries = new ArrayList<>();
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      TreeSet<String> leaves = new TreeSet<>();
      collect(entry.path("fieldsV1"), "", leaves);
      entries.add(
          entry.path("manager").asText() + "/" + entry.path("operation").asText() + ": " + leaves);
    }
    return entries;
  }

  private static void collect(JsonNode node, String path, TreeSet<String> leaves) {
    boolean leaf = true;
    for (var e : node.properties()) {
      if (!e.getKey().equals(".")) {
        leaf = false;
        collect(e.getValue(), path + "." + e.getKey().substring(2), leaves);
      }
    }
    if (leaf && !path.isEmpty()) {
      leaves.add(path);
    }
  }

  @Test
  void ordinaryWrites_recordUpdateEntries_thatApplyConflictsWith_andDroppedFieldsGo() {
    Raw created =
        raw(
            "POST",
            configMaps() + "?fieldManager=alice",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"owned\","
                + "\"labels\":{\"l\":\"1\"}},\"data\":{\"a\":\"1\"}}",
            Map.of());
    assertThat(created.code()).isEqualTo(201);
    assertThat(ownership(created.body()))
        .containsExactly("alice/Update: [.data.a, .metadata.labels.l]");

    Raw conflict = apply("owned", "bob", "  a: \"2\"\n");
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.body().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\" using v1: .data.a");

    Raw both = apply("owned", "bob", "  b: \"x\"\n  c: \"y\"\n");
    assertThat(both.code()).isEqualTo(200);
    assertSameJson("data", both.body().path("data"), "{\"a\":\"1\",\"b\":\"x\",\"c\":\"y\"}");
    assertThat(ownership(both.body()))
        .containsExactly(
            "bob/Apply: [.data.b, .data.c]", "alice/Update: [.data.a, .metadata.labels.l]");

    Raw dropped = apply("owned", "bob", "  b: \"x\"\n");
    assertThat(dropped.code()).isEqualTo(200);
    assertSameJson(
        "data after dropping c", dropped.body().path("data"), "{\"a\":\"1\",\"b\":\"x\"}");

    Raw takenOver =
        raw(
            "PATCH",
            configMaps() + "/owned?fieldManager=carol",
            "application/merge-patch+json",
            "{\"data\":{\"b\":\"z\"}}",
            Map.of());
    assertThat(takenOver.code()).isEqualTo(200);
    assertThat(ownership(takenOver.body()))
        .containsExactly("alice/Update: [.data.a, .metadata.labels.l]", "carol/Update: [.data.b]");
  }

  @Test
  void update_withoutFieldManager_isOwnedByTheUserAgentsProduct() {
    Raw created =
        raw(
            "POST",
            configMaps(),
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"agent\"},"
                + "\"data\":{\"a\":\"1\"}}",
            Map.of());

    // fabric8's User-Agent is fabric8-kubernetes-client/<version> (...): the product is the name.
    assertThat(ownership(created.body()))
        .containsExactly("fabric8-kubernetes-client/Update: [.data.a]");
  }
}
