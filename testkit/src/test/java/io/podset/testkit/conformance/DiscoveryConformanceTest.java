package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiscoveryConformanceTest extends ConformanceTestBase {

  @Test
  void version_isTheRelease1_34_ofTheRealControlPlane() {
    assertThat(client.getKubernetesVersion().getMajor()).isEqualTo("1");
    assertThat(client.getKubernetesVersion().getMinor()).isEqualTo("34");
    assertThat(client.getKubernetesVersion().getGitVersion()).matches("v1\\.34\\.\\d+");
    com.fasterxml.jackson.databind.JsonNode version = get("/version").body();
    assertThat(version.path("emulationMinor").asText()).isEqualTo("34");
    assertThat(version.path("minCompatibilityMinor").asText()).isEqualTo("33");
  }

  @Test
  void coreResources_listShortNamesAndSubresources() {
    APIResourceList core = client.getApiResources("v1");
    APIResource pods = find(core, "pods");
    assertThat(pods.getShortNames()).contains("po");
    assertThat(pods.getNamespaced()).isTrue();
    assertThat(pods.getVerbs())
        .contains("create", "delete", "get", "list", "patch", "update", "watch");
    assertThat(find(core, "pods/status").getVerbs()).contains("get", "patch", "update");
    assertThat(find(core, "namespaces").getNamespaced()).isFalse();
  }

  @Test
  void groups_includeBuiltinsAndInstalledCrdGroup() {
    List<String> groups = new ArrayList<>();
    client.getApiGroups().getGroups().forEach(g -> groups.add(g.getName()));
    assertThat(groups)
        .contains(
            "apps",
            "coordination.k8s.io",
            "events.k8s.io",
            "rbac.authorization.k8s.io",
            "apiextensions.k8s.io",
            "conformance.podset.io");
  }

  @Test
  void customResource_discoveryHasShortNamesCategoriesAndSubresources() {
    APIResourceList list = client.getApiResources("conformance.podset.io/v1");
    APIResource widgets = find(list, "widgets");
    assertThat(widgets.getKind()).isEqualTo("Widget");
    assertThat(widgets.getShortNames()).containsExactly("wdg");
    assertThat(widgets.getCategories()).contains("conformance");
    assertThat(find(list, "widgets/status")).isNotNull();
    APIResource scale = find(list, "widgets/scale");
    assertThat(scale.getGroup()).isEqualTo("autoscaling");
    assertThat(scale.getKind()).isEqualTo("Scale");
  }

  @Test
  void crd_isEstablished() {
    CustomResourceDefinition crd =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("widgets.conformance.podset.io")
            .get();
    assertThat(crd.getStatus().getConditions())
        .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
    assertThat(crd.getStatus().getAcceptedNames().getKind()).isEqualTo("Widget");
  }

  @Test
  void table_usesCrdPrinterColumns() {
    createWidget("table-row", 3);
    Raw table =
        raw(
            "GET",
            widgetsPath(),
            null,
            null,
            Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"));
    assertThat(table.code()).isEqualTo(200);
    assertThat(table.body().path("kind").asText()).isEqualTo("Table");
    List<String> columns = new ArrayList<>();
    table.body().path("columnDefinitions").forEach(c -> columns.add(c.path("name").asText()));
    assertThat(columns).containsExactly("Name", "Desired", "Color", "Age");
    JsonNode row = null;
    for (JsonNode r : table.body().path("rows")) {
      if (r.path("cells").get(0).asText().equals("table-row")) {
        row = r;
      }
    }
    assertThat(row).isNotNull();
    assertThat(row.path("cells").get(1).asInt()).isEqualTo(3);
    assertThat(row.path("cells").get(2).asText()).isEqualTo("red");
  }

  private static APIResource find(APIResourceList list, String name) {
    return list.getResources().stream()
        .filter(r -> r.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
