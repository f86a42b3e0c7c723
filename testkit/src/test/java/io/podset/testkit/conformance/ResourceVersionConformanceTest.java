package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceVersionConformanceTest extends ConformanceTestBase {

  @Test
  void update_withChange_bumpsResourceVersion() {
    GenericKubernetesResource created = createWidget("rv-bump", 1);
    GenericKubernetesResource updated =
        widgets()
            .withName("rv-bump")
            .edit(
                w -> {
                  mapOf(w, "spec").put("replicas", 2);
                  return w;
                });
    assertThat(rv(updated)).isGreaterThan(rv(created));
  }

  @Test
  void update_withoutChange_keepsResourceVersion() {
    GenericKubernetesResource created = createWidget("rv-noop", 1);
    GenericKubernetesResource replaced = widgets().resource(created).update();
    assertThat(replaced.getMetadata().getResourceVersion())
        .isEqualTo(created.getMetadata().getResourceVersion());
  }

  @Test
  void writesToDifferentResources_shareOneIncreasingSequence() {
    ConfigMap cm =
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("rv-cm").endMetadata().build())
            .create();
    GenericKubernetesResource w = createWidget("rv-after-cm", 1);
    ConfigMap cm2 =
        client
            .configMaps()
            .inNamespace(ns)
            .withName("rv-cm")
            .edit(
                c -> {
                  c.setData(Map.of("k", "v"));
                  return c;
                });
    assertThat(rv(w)).isGreaterThan(rv(cm));
    assertThat(rv(cm2)).isGreaterThan(rv(w));
  }

  @Test
  void list_carriesListKindAndSnapshotResourceVersion() {
    GenericKubernetesResource w = createWidget("rv-list", 1);
    Raw list = get(widgetsPath());
    assertThat(list.code()).isEqualTo(200);
    assertThat(list.body().path("kind").asText()).isEqualTo("WidgetList");
    assertThat(list.body().path("apiVersion").asText()).isEqualTo("conformance.podset.io/v1");
    assertThat(list.body().path("metadata").path("resourceVersion").asLong())
        .isGreaterThanOrEqualTo(rv(w));
  }
}
