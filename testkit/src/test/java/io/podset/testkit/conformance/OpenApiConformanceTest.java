package io.podset.testkit.conformance;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * OpenAPI v3 as kubectl and client-go read it: the index with hashed URLs, the real schemas of the
 * built-in kinds, the HTTP caching around them, and the document of a custom resource, rebuilt when
 * its CRD changes and gone when it is deleted.
 */
class OpenApiConformanceTest extends ConformanceTestBase {

  private static final String GIZMOS = "gizmos.openapi.conformance.podset.io";

  /** A GET with its headers: status, the headers asked for, the body parsed (null if not JSON). */
  record Fetched(int code, Map<String, String> headers, JsonNode body) {
    String header(String name) {
      return headers.get(name);
    }
  }

  Fetched fetch(String path, Map<String, String> requestHeaders) {
    HttpClient http = client.getHttpClient();
    HttpRequest.Builder builder =
        http.newHttpRequestBuilder().uri(client.getMasterUrl() + path.substring(1));
    requestHeaders.forEach(builder::header);
    try {
      HttpResponse<String> response =
          http.sendAsync(builder.build(), String.class).get(30, TimeUnit.SECONDS);
      Map<String, String> headers = new java.util.HashMap<>();
      for (String name :
          new String[] {"Cache-Control", "ETag", "Expires", "Vary", "Location", "Content-Type"}) {
        String value = response.header(name);
        if (value != null) {
          headers.put(name, value);
        }
      }
      JsonNode json;
      try {
        json =
            response.body() == null || response.body().isEmpty()
                ? null
                : JSON.readTree(response.body());
      } catch (IOException e) {
        json = null;
      }
      return new Fetched(response.code(), headers, json);
    } catch (Exception e) {
      throw new IllegalStateException("GET " + path + " failed", e);
    }
  }

  private JsonNode index() {
    Fetched index = fetch("/openapi/v3", Map.of());
    assertThat(index.code()).isEqualTo(200);
    return index.body().path("paths");
  }

  private String url(String groupVersionPath) {
    return index().path(groupVersionPath).path("serverRelativeURL").asText();
  }

  @Test
  void index_listsEachGroupVersion_withAHashedUrl() {
    // The real server adds a new CRD's group/version to the index a moment after it is Established.
    JsonNode paths =
        await(
            "the Widget CRD's group/version in the index",
            this::index,
            p -> p.has("apis/conformance.podset.io/v1"));
    for (String gv :
        new String[] {
          "api/v1",
          "apis/apps/v1",
          "apis/batch/v1",
          "apis/coordination.k8s.io/v1",
          "apis/conformance.podset.io/v1"
        }) {
      assertThat(paths.path(gv).path("serverRelativeURL").asText())
          .as(gv)
          .matches("/openapi/v3/" + gv.replace(".", "\\.") + "\\?hash=[0-9A-F]{128}");
    }
  }

  @Test
  void coreDocument_hasThePodSchemas_ofKubernetes134() {
    JsonNode doc = fetch(url("api/v1"), Map.of()).body();
    assertThat(doc.path("openapi").asText()).isEqualTo("3.0.0");
    JsonNode schemas = doc.path("components").path("schemas");
    JsonNode pod = schemas.path("io.k8s.api.core.v1.Pod");
    assertSameJson(
        "Pod's gvk",
        pod.path("x-kubernetes-group-version-kind"),
        "[{\"group\":\"\",\"kind\":\"Pod\",\"version\":\"v1\"}]");
    JsonNode containers =
        schemas.path("io.k8s.api.core.v1.PodSpec").path("properties").path("containers");
    assertThat(containers.path("type").asText()).isEqualTo("array");
    assertThat(containers.path("description").asText())
        .startsWith("List of containers belonging to the pod.");
    assertThat(containers.path("items").path("allOf").get(0).path("$ref").asText())
        .isEqualTo("#/components/schemas/io.k8s.api.core.v1.Container");
    assertThat(containers.path("x-kubernetes-patch-merge-key").asText()).isEqualTo("name");
    // The enum values, as the server lists them with its default feature gates.
    assertThat(
            schemas
                .path("io.k8s.api.core.v1.ContainerPort")
                .path("properties")
                .path("protocol")
                .path("enum"))
        .hasToString("[\"SCTP\",\"TCP\",\"UDP\"]");
    JsonNode create = doc.path("paths").path("/api/v1/namespaces/{namespace}/pods").path("post");
    assertThat(create.path("operationId").asText()).isEqualTo("createCoreV1NamespacedPod");
    assertThat(
            doc.path("paths").path("/api/v1/namespaces/{namespace}/pods/{name}/status").isObject())
        .isTrue();
  }

  @Test
  void documents_areCachedAsTheRealServerCachesThem() {
    String url = url("apis/apps/v1");
    String hash = url.substring(url.indexOf("?hash=") + 6);
    Fetched hashed = fetch(url, Map.of());
    assertThat(hashed.code()).isEqualTo(200);
    assertThat(hashed.header("Cache-Control")).isEqualTo("public, immutable");
    assertThat(hashed.header("Expires")).isNotBlank();
    assertThat(hashed.header("ETag")).isEqualTo("\"" + hash + "\"");
    assertThat(hashed.header("Vary")).isEqualTo("Accept");
    assertThat(hashed.header("Content-Type")).isEqualTo("application/json");

    Fetched plain = fetch("/openapi/v3/apis/apps/v1", Map.of());
    assertThat(plain.header("Cache-Control")).isEqualTo("no-cache, private");
    assertThat(plain.header("ETag")).isEqualTo("\"" + hash + "\"");
    assertThat(plain.body()).isEqualTo(hashed.body());

    Fetched unchanged =
        fetch("/openapi/v3/apis/apps/v1", Map.of("If-None-Match", "\"" + hash + "\""));
    assertThat(unchanged.code()).isEqualTo(304);

    assertThat(fetch("/openapi/v3/apis/apps/v1", Map.of("Accept", "application/yaml")).code())
        .isEqualTo(406);
    assertThat(fetch("/openapi/v3/apis/nothing.example.com/v1", Map.of()).code()).isEqualTo(404);
  }

  @Test
  void v2_isServedAsJson_andInTheProtobufFormOfKubectl127() throws Exception {
    Fetched json = fetch("/openapi/v2", Map.of("Accept", "application/json"));
    assertThat(json.code()).isEqualTo(200);
    assertThat(java.util.Arrays.stream(json.header("Vary").split(",")).map(String::trim))
        .containsExactly("Accept-Encoding", "Accept");
    assertThat(json.body().path("swagger").asText()).isEqualTo("2.0");
    assertSameJson(
        "Pod's gvk in v2",
        json.body()
            .path("definitions")
            .path("io.k8s.api.core.v1.Pod")
            .path("x-kubernetes-group-version-kind"),
        "[{\"group\":\"\",\"kind\":\"Pod\",\"version\":\"v1\"}]");

    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(client.getMasterUrl() + "openapi/v2")
            .header("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
            .build();
    HttpResponse<byte[]> protobuf = http.sendAsync(request, byte[].class).get(30, TimeUnit.SECONDS);
    assertThat(protobuf.code()).isEqualTo(200);
    assertThat(protobuf.header("Content-Type"))
        .isEqualTo("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    // gnostic's Document: field 1 (swagger) is the string "2.0", field 2 the info titled
    // Kubernetes.
    byte[] body = protobuf.body();
    assertThat(java.util.Arrays.copyOf(body, 5)).containsExactly(0x0a, 0x03, '2', '.', '0');
    assertThat(new String(body, 0, 64, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("Kubernetes");
  }

  @Test
  void staleHash_isRedirectedToTheCurrentOne() {
    String current = url("apis/apps/v1");
    Fetched stale = fetch("/openapi/v3/apis/apps/v1?hash=0123", Map.of());
    assertThat(stale.code()).isEqualTo(301);
    assertThat(stale.header("Location")).isEqualTo(current);
  }

  @Test
  void customResource_documentFollowsItsCrd_createUpdateDelete() {
    CustomResourceDefinition crd = gizmoCrd();
    var crds = client.apiextensions().v1().customResourceDefinitions();
    crds.resource(crd).create();
    try {
      String gv = "apis/openapi.conformance.podset.io/v1";
      String first = await("the gizmo document in the index", () -> url(gv), u -> !u.isEmpty());
      JsonNode doc = fetch(first, Map.of()).body();
      JsonNode schemas = doc.path("components").path("schemas");
      JsonNode gizmo = schemas.path("io.podset.conformance.openapi.v1.Gizmo");
      assertSameJson(
          "Gizmo's gvk",
          gizmo.path("x-kubernetes-group-version-kind"),
          "[{\"group\":\"openapi.conformance.podset.io\",\"kind\":\"Gizmo\",\"version\":\"v1\"}]");
      JsonNode size = gizmo.path("properties").path("spec").path("properties").path("size");
      assertThat(size.path("type").asText()).isEqualTo("integer");
      assertThat(size.path("description").asText()).isEqualTo("How big the gizmo is.");
      assertThat(
              gizmo.path("properties").path("metadata").path("allOf").get(0).path("$ref").asText())
          .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
      assertThat(gizmo.path("properties").path("kind").path("type").asText()).isEqualTo("string");
      // An embedded resource gets apiVersion, kind and metadata, and requires kind and apiVersion.
      JsonNode part = gizmo.at("/properties/spec/properties/parts/items");
      assertThat(part.at("/properties/kind/description").asText())
          .startsWith("kind is a string value representing the type of this object.");
      assertThat(part.at("/properties/apiVersion/type").asText()).isEqualTo("string");
      assertThat(part.at("/properties/metadata/allOf/0/$ref").asText())
          .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
      assertThat(part.path("required")).hasToString("[\"kind\",\"apiVersion\"]");
      JsonNode list = schemas.path("io.podset.conformance.openapi.v1.GizmoList");
      assertThat(list.path("description").asText()).isEqualTo("GizmoList is a list of Gizmo");
      assertThat(list.path("properties").path("items").path("items").path("$ref").asText())
          .isEqualTo("#/components/schemas/io.podset.conformance.openapi.v1.Gizmo");
      JsonNode paths = doc.path("paths");
      assertThat(
              paths
                  .path("/apis/openapi.conformance.podset.io/v1/gizmos")
                  .path("post")
                  .path("operationId")
                  .asText())
          .isEqualTo("createOpenapiConformancePodsetIoV1Gizmo");
      assertThat(paths.has("/apis/openapi.conformance.podset.io/v1/gizmos/{name}/status")).isTrue();
      assertThat(paths.has("/apis/openapi.conformance.podset.io/v1/gizmos/{name}/scale")).isFalse();
      assertThat(schemas.has("io.k8s.api.autoscaling.v1.Scale")).isFalse();

      CustomResourceDefinition live = crds.withName(GIZMOS).get();
      live.getSpec()
          .getVersions()
          .get(0)
          .getSchema()
          .getOpenAPIV3Schema()
          .getProperties()
          .get("spec")
          .getProperties()
          .get("size")
          .setDescription("How big the gizmo is, in gizmo units.");
      crds.resource(live).update();
      String second =
          await(
              "a new hash after the update", () -> url(gv), u -> !u.equals(first) && !u.isEmpty());
      JsonNode updated = fetch(second, Map.of()).body();
      assertThat(
              updated
                  .at(
                      "/components/schemas/io.podset.conformance.openapi.v1.Gizmo/properties/spec/properties/size/description")
                  .asText())
          .isEqualTo("How big the gizmo is, in gizmo units.");
    } finally {
      crds.withName(GIZMOS).delete();
    }
    await(
        "the gizmo document gone from the index",
        () -> !index().has("apis/openapi.conformance.podset.io/v1"));
  }

  private CustomResourceDefinition gizmoCrd() {
    String yaml =
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: gizmos.openapi.conformance.podset.io
        spec:
          group: openapi.conformance.podset.io
          scope: Cluster
          names: {plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList}
          versions:
            - name: v1
              served: true
              storage: true
              subresources: {status: {}}
              schema:
                openAPIV3Schema:
                  type: object
                  properties:
                    spec:
                      type: object
                      properties:
                        size: {type: integer, description: How big the gizmo is.}
                        parts:
                          type: array
                          items:
                            type: object
                            x-kubernetes-embedded-resource: true
                            x-kubernetes-preserve-unknown-fields: true
                    status:
                      type: object
                      properties:
                        phase: {type: string}
        """;
    try (InputStream in =
        new java.io.ByteArrayInputStream(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
      return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
