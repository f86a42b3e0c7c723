package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ListConformanceTest extends ConformanceTestBase {

  @BeforeAll
  void seed() {
    // Labels: a {tier=front, env=prod}, b {tier=back, env=prod}, c {tier=front}, d {}.
    seedWidget("sel-a", Map.of("tier", "front", "env", "prod"));
    seedWidget("sel-b", Map.of("tier", "back", "env", "prod"));
    seedWidget("sel-c", Map.of("tier", "front"));
    seedWidget("sel-d", Map.of());
  }

  private void seedWidget(String name, Map<String, String> labels) {
    GenericKubernetesResource w = widget(name, 1);
    Map<String, String> all = new HashMap<>(labels);
    all.put("suite", "selectors");
    w.getMetadata().setLabels(all);
    widgets().resource(w).create();
  }

  private List<String> names(String labelSelector) {
    String selector = "suite=selectors" + (labelSelector.isEmpty() ? "" : "," + labelSelector);
    Raw raw =
        get(
            widgetsPath()
                + "?labelSelector="
                + URLEncoder.encode(selector, StandardCharsets.UTF_8));
    assertThat(raw.code()).as("list with " + selector).isEqualTo(200);
    List<String> names = new ArrayList<>();
    raw.body().path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    return names;
  }

  @ParameterizedTest(name = "{0} selects {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tier=front|sel-a sel-c",
        "tier==front|sel-a sel-c",
        "tier!=front|sel-b sel-d",
        "tier in (front,back)|sel-a sel-b sel-c",
        "tier notin (front)|sel-b sel-d",
        "tier|sel-a sel-b sel-c",
        "!tier|sel-d",
        "tier=front,env=prod|sel-a",
        "env,tier notin (back)|sel-a",
      })
  void labelSelector_grammar(String selector, String expected) {
    assertThat(names(selector)).containsExactly(expected.split(" "));
  }

  @Test
  void fieldSelector_metadataName() {
    Raw raw = get(widgetsPath() + "?fieldSelector=metadata.name%3Dsel-b");
    assertThat(raw.body().path("items")).hasSize(1);
    assertThat(raw.body().path("items").get(0).path("metadata").path("name").asText())
        .isEqualTo("sel-b");
    Raw not =
        get(
            widgetsPath()
                + "?labelSelector=suite%3Dselectors&fieldSelector=metadata.name!%3Dsel-b");
    assertThat(not.body().path("items")).hasSize(3);
  }

  @Test
  void fieldSelector_podsByNodeNameAndPhase() {
    client.pods().inNamespace(ns).resource(pod("on-node", "node-1")).create();
    client.pods().inNamespace(ns).resource(pod("unscheduled", null)).create();
    Raw byNode = get("/api/v1/namespaces/" + ns + "/pods?fieldSelector=spec.nodeName%3Dnode-1");
    assertThat(byNode.body().path("items")).hasSize(1);
    Raw unscheduled = get("/api/v1/namespaces/" + ns + "/pods?fieldSelector=spec.nodeName%3D");
    assertThat(unscheduled.body().path("items")).hasSize(1);
    assertThat(unscheduled.body().path("items").get(0).path("metadata").path("name").asText())
        .isEqualTo("unscheduled");
    Raw pending = get("/api/v1/namespaces/" + ns + "/pods?fieldSelector=status.phase%3DPending");
    assertThat(pending.body().path("items")).hasSize(2);
  }

  private static io.fabric8.kubernetes.api.model.Pod pod(String name, String node) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .build();
  }

  @Test
  void limitAndContinue_pageThroughOneSnapshot() {
    for (int i = 0; i < 5; i++) {
      GenericKubernetesResource w = widget("page-" + i, 1);
      w.getMetadata().setLabels(Map.of("suite", "pages"));
      widgets().resource(w).create();
    }
    String base = widgetsPath() + "?labelSelector=suite%3Dpages&limit=2";
    Raw first = get(base);
    JsonNode meta = first.body().path("metadata");
    String snapshot = meta.path("resourceVersion").asText();
    assertThat(first.body().path("items")).hasSize(2);
    assertThat(meta.path("continue").asText()).isNotEmpty();
    // Created after the first page: not part of the snapshot.
    GenericKubernetesResource late = widget("page-9", 1);
    late.getMetadata().setLabels(Map.of("suite", "pages"));
    widgets().resource(late).create();
    List<String> names = new ArrayList<>();
    first.body().path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    String token = meta.path("continue").asText();
    while (!token.isEmpty()) {
      Raw page = get(base + "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
      assertThat(page.code()).isEqualTo(200);
      assertThat(page.body().path("metadata").path("resourceVersion").asText()).isEqualTo(snapshot);
      page.body().path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
      token = page.body().path("metadata").path("continue").asText("");
    }
    assertThat(names).containsExactly("page-0", "page-1", "page-2", "page-3", "page-4");
  }

  @Test
  void limit_withoutSelector_reportsRemainingItemCount() {
    String other = target.createNamespace();
    for (int i = 0; i < 3; i++) {
      target.widgets(other).resource(widget("count-" + i, 1)).create();
    }
    Raw page = get("/apis/conformance.podset.io/v1/namespaces/" + other + "/widgets?limit=1");
    assertThat(page.body().path("metadata").path("remainingItemCount").asLong()).isEqualTo(2);
  }
}
