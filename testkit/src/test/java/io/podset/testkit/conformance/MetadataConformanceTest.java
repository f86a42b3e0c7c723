package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetadataConformanceTest extends ConformanceTestBase {

  private static long generation(GenericKubernetesResource w) {
    return w.getMetadata().getGeneration();
  }

  @Test
  void create_assignsUidTimestampAndFirstGeneration() {
    GenericKubernetesResource w = createWidget("meta-new", 1);
    assertThat(w.getMetadata().getUid()).matches("[0-9a-f-]{36}");
    assertThat(Instant.parse(w.getMetadata().getCreationTimestamp())).isNotNull();
    assertThat(generation(w)).isEqualTo(1);
  }

  @Test
  void create_generateName_appendsFiveCharacters() {
    GenericKubernetesResource w = widget(null, 1);
    w.getMetadata().setGenerateName("gen-");
    GenericKubernetesResource created = widgets().resource(w).create();
    assertThat(created.getMetadata().getName()).matches("gen-[a-z0-9]{5}");
  }

  @Test
  void create_appliesSchemaDefaults() {
    GenericKubernetesResource w = createWidget("meta-defaults", 1);
    assertThat(mapOf(w, "spec").get("color")).isEqualTo("red");
  }

  @Test
  void generation_bumpsOnSpecChangeOnly() {
    createWidget("meta-gen", 1);
    GenericKubernetesResource labelled =
        widgets()
            .withName("meta-gen")
            .edit(
                w -> {
                  w.getMetadata().setLabels(Map.of("x", "y"));
                  return w;
                });
    assertThat(generation(labelled)).isEqualTo(1);
    GenericKubernetesResource withStatus =
        widgets()
            .withName("meta-gen")
            .editStatus(
                w -> {
                  w.setAdditionalProperty("status", Map.of("replicas", 1));
                  return w;
                });
    assertThat(generation(withStatus)).isEqualTo(1);
    GenericKubernetesResource respec =
        widgets()
            .withName("meta-gen")
            .edit(
                w -> {
                  mapOf(w, "spec").put("replicas", 3);
                  return w;
                });
    assertThat(generation(respec)).isEqualTo(2);
  }

  @Test
  void mainUpdate_ignoresStatus_andStatusUpdate_ignoresSpec() {
    createWidget("meta-sub", 1);
    GenericKubernetesResource main =
        widgets()
            .withName("meta-sub")
            .edit(
                w -> {
                  w.setAdditionalProperty("status", Map.of("phase", "Sneaky"));
                  return w;
                });
    assertThat(main.getAdditionalProperties().get("status")).isNull();
    GenericKubernetesResource status =
        widgets()
            .withName("meta-sub")
            .editStatus(
                w -> {
                  w.setAdditionalProperty("status", Map.of("phase", "Ready"));
                  mapOf(w, "spec").put("replicas", 9);
                  return w;
                });
    assertThat(mapOf(status, "status").get("phase")).isEqualTo("Ready");
    assertThat(mapOf(status, "spec").get("replicas")).isEqualTo(1);
  }
}
