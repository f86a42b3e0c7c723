package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Aggregated discovery ({@code apidiscovery.k8s.io/v2}) as kubectl 1.28+ and client-go ask for it:
 * the content of {@code /api} and {@code /apis}, built-in resources and a CRD's, and the media type
 * negotiation around it.
 */
class AggregatedDiscoveryConformanceTest extends ConformanceTestBase {

  private static final String V2 =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
  private static final String V2BETA1 =
      "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

  record Answer(int code, String contentType, String vary, String etag, JsonNode body) {}

  Answer discover(String path, String accept) {
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(client.getMasterUrl() + path.substring(1))
            .header("Accept", accept)
            .build();
    try {
      HttpResponse<String> response =
          http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
      return new Answer(
          response.code(),
          response.header("Content-Type"),
          response.header("Vary"),
          response.header("ETag"),
          JSON.readTree(response.body()));
    } catch (Exception e) {
      throw new IllegalStateException("GET " + path + " failed", e);
    }
  }

  private static JsonNode group(JsonNode list, String name) {
    for (JsonNode group : list.path("items")) {
      if (group.path("metadata").path("name").asText().equals(name)) {
        return group;
      }
    }
    throw new AssertionError("no group " + name + " in " + list);
  }

  private static JsonNode resource(JsonNode version, String name) {
    for (JsonNode resource : version.path("resources")) {
      if (resource.path("resource").asText().equals(name)) {
        return resource;
      }
    }
    throw new AssertionError("no resource " + name + " in " + version);
  }

  @Test
  void core_isOneUnnamedGroup_withTheBuiltinResources() {
    Answer core = discover("/api", V2 + ",application/json");
    assertThat(core.code()).isEqualTo(200);
    assertThat(core.contentType()).isEqualTo(V2);
    assertThat(core.vary()).isEqualTo("Accept");
    assertThat(core.etag()).matches("\"[0-9A-F]+\"");
    assertThat(core.body().path("kind").asText()).isEqualTo("APIGroupDiscoveryList");
    assertThat(core.body().path("apiVersion").asText()).isEqualTo("apidiscovery.k8s.io/v2");
    JsonNode group = core.body().path("items").get(0);
    assertThat(group.path("metadata").path("name").isMissingNode()).isTrue();
    JsonNode v1 = group.path("versions").get(0);
    assertThat(v1.path("version").asText()).isEqualTo("v1");
    assertThat(v1.path("freshness").asText()).isEqualTo("Current");
    assertSameJson(
        "configmaps",
        resource(v1, "configmaps"),
        """
        {"resource":"configmaps","responseKind":{"group":"","version":"","kind":"ConfigMap"},
         "scope":"Namespaced","singularResource":"configmap",
         "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
         "shortNames":["cm"]}""");
    JsonNode namespaces = resource(v1, "namespaces");
    assertThat(namespaces.path("scope").asText()).isEqualTo("Cluster");
    List<String> names = new ArrayList<>();
    v1.path("resources").forEach(r -> names.add(r.path("resource").asText()));
    assertThat(names).as("resources sorted by name").isSorted();
  }

  @Test
  void groups_listDeploymentsAndCrdsWithTheirSubresources() {
    Answer apis = discover("/apis", V2);
    assertThat(apis.code()).isEqualTo(200);
    assertThat(apis.contentType()).isEqualTo(V2);
    JsonNode apps = group(apis.body(), "apps").path("versions").get(0);
    assertThat(apps.path("version").asText()).isEqualTo("v1");
    assertSameJson(
        "deployments",
        resource(apps, "deployments"),
        """
        {"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},
         "scope":"Namespaced","singularResource":"deployment",
         "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
         "shortNames":["deploy"],"categories":["all"],
         "subresources":[
           {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
            "verbs":["get","patch","update"]},
           {"subresource":"status","responseKind":{"group":"","version":"","kind":"Deployment"},
            "verbs":["get","patch","update"]}]}""");
    JsonNode apiextensions = group(apis.body(), "apiextensions.k8s.io").path("versions").get(0);
    assertSameJson(
        "customresourcedefinitions",
        resource(apiextensions, "customresourcedefinitions"),
        """
        {"resource":"customresourcedefinitions",
         "responseKind":{"group":"","version":"","kind":"CustomResourceDefinition"},
         "scope":"Cluster","singularResource":"customresourcedefinition",
         "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
         "shortNames":["crd","crds"],"categories":["api-extensions"],
         "subresources":[
           {"subresource":"status",
            "responseKind":{"group":"","version":"","kind":"CustomResourceDefinition"},
            "verbs":["get","patch","update"]}]}""");
    JsonNode autoscaling = group(apis.body(), "autoscaling");
    assertThat(autoscaling.path("versions").get(0).path("version").asText())
        .as("the preferred version first")
        .isEqualTo("v2");
  }

  @Test
  void customResource_isListedAsTheCrdHandlerListsIt() {
    JsonNode widgets =
        io.podset.testkit.Eventually.await(
            "the Widget CRD in aggregated discovery",
            () -> discover("/apis", V2).body(),
            list -> list.toString().contains("\"conformance.podset.io\""));
    JsonNode v1 = group(widgets, "conformance.podset.io").path("versions").get(0);
    assertThat(v1.path("freshness").asText()).isEqualTo("Current");
    assertSameJson(
        "widgets",
        resource(v1, "widgets"),
        """
        {"resource":"widgets",
         "responseKind":{"group":"conformance.podset.io","version":"v1","kind":"Widget"},
         "scope":"Namespaced","singularResource":"widget",
         "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
         "shortNames":["wdg"],"categories":["conformance"],
         "subresources":[
           {"subresource":"status",
            "responseKind":{"group":"conformance.podset.io","version":"v1","kind":"Widget"},
            "verbs":["get","patch","update"]},
           {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
            "verbs":["get","patch","update"]}]}""");
  }

  @Test
  void otherAccepts_getThePlainDocuments_andV2beta1AloneIsRefused() {
    Answer plain = discover("/apis", "application/json");
    assertThat(plain.code()).isEqualTo(200);
    assertThat(plain.body().path("kind").asText()).isEqualTo("APIGroupList");
    // kubectl 1.27 asks for v2beta1, which 1.34 no longer serves, then for plain JSON.
    Answer fallback = discover("/apis", V2BETA1 + ",application/json");
    assertThat(fallback.code()).isEqualTo(200);
    assertThat(fallback.body().path("kind").asText()).isEqualTo("APIGroupList");
    assertThat(discover("/api", "application/json").body().path("kind").asText())
        .isEqualTo("APIVersions");
    Answer refused = discover("/apis", V2BETA1);
    assertThat(refused.code()).isEqualTo(406);
    assertThat(refused.body().path("reason").asText()).isEqualTo("NotAcceptable");
  }
}
