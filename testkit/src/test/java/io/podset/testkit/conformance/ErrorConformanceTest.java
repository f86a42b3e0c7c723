package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorConformanceTest extends ConformanceTestBase {

  @Test
  void get_missingObject_is404NotFound() {
    Raw raw = get(widgetsPath() + "/absent");
    assertThat(raw.code()).isEqualTo(404);
    assertThat(raw.body().path("kind").asText()).isEqualTo("Status");
    assertThat(raw.body().path("reason").asText()).isEqualTo("NotFound");
    assertThat(raw.body().path("details").path("name").asText()).isEqualTo("absent");
    assertThat(raw.body().path("details").path("kind").asText()).isEqualTo("widgets");
    assertThat(raw.body().path("code").asInt()).isEqualTo(404);
  }

  @Test
  void create_existingName_is409AlreadyExists() {
    createWidget("dup", 1);
    KubernetesClientException e = apiError(() -> createWidget("dup", 1));
    assertThat(e.getCode()).isEqualTo(409);
    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
  }

  @Test
  void update_staleResourceVersion_is409Conflict() {
    GenericKubernetesResource stale = createWidget("stale", 1);
    widgets()
        .withName("stale")
        .edit(
            w -> {
              mapOf(w, "spec").put("replicas", 2);
              return w;
            });
    mapOf(stale, "spec").put("replicas", 3);
    KubernetesClientException e = apiError(() -> widgets().resource(stale).update());
    assertThat(e.getCode()).isEqualTo(409);
    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
  }

  @Test
  void statusUpdate_staleResourceVersion_is409Conflict() {
    GenericKubernetesResource stale = createWidget("stale-status", 1);
    widgets()
        .withName("stale-status")
        .edit(
            w -> {
              w.getMetadata().setLabels(Map.of("touched", "yes"));
              return w;
            });
    stale.setAdditionalProperty("status", Map.of("replicas", 1));
    KubernetesClientException e = apiError(() -> widgets().resource(stale).updateStatus());
    assertThat(e.getCode()).isEqualTo(409);
  }

  @Test
  void scaleUpdate_staleResourceVersion_is409Conflict() {
    GenericKubernetesResource created = createWidget("stale-scale", 1);
    widgets()
        .withName("stale-scale")
        .edit(
            w -> {
              w.getMetadata().setLabels(Map.of("touched", "yes"));
              return w;
            });
    String body =
        "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"stale-scale\",\"namespace\":\""
            + ns
            + "\",\"resourceVersion\":\""
            + created.getMetadata().getResourceVersion()
            + "\"},\"spec\":{\"replicas\":4}}";
    Raw raw = raw("PUT", widgetsPath() + "/stale-scale/scale", "application/json", body, Map.of());
    assertThat(raw.code()).isEqualTo(409);
    assertThat(raw.body().path("reason").asText()).isEqualTo("Conflict");
  }

  @Test
  void create_inMissingNamespace_is404() {
    KubernetesClientException e =
        apiError(
            () ->
                client
                    .configMaps()
                    .inNamespace("no-such-namespace-x")
                    .resource(
                        new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("c")
                            .endMetadata()
                            .build())
                    .create());
    assertThat(e.getCode()).isEqualTo(404);
    assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
  }

  @Test
  void create_invalidName_is422Invalid() {
    KubernetesClientException e = apiError(() -> createWidget("Not_A_DNS_Name", 1));
    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(e.getStatus().getDetails().getCauses())
        .extracting(StatusCause::getField)
        .contains("metadata.name");
  }

  @Test
  void create_schemaViolations_is422WithOneCausePerField() {
    GenericKubernetesResource w = widget("bad-spec", -1);
    Map<String, Object> spec = mapOf(w, "spec");
    spec.put("color", "purple");
    spec.put("code", "ABC");
    spec.put("note", "much too long for ten");
    KubernetesClientException e = apiError(() -> widgets().resource(w).create());
    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getDetails().getCauses())
        .extracting(StatusCause::getField)
        .contains("spec.replicas", "spec.color", "spec.code", "spec.note");
  }

  @Test
  void create_missingRequiredField_is422() {
    GenericKubernetesResource w = widget("no-replicas", 0);
    w.setAdditionalProperty("spec", Map.of("color", "red"));
    KubernetesClientException e = apiError(() -> widgets().resource(w).create());
    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getDetails().getCauses())
        .extracting(StatusCause::getField)
        .contains("spec.replicas");
  }

  @Test
  void create_podWithoutContainers_is422() {
    KubernetesClientException e =
        apiError(
            () ->
                client
                    .pods()
                    .inNamespace(ns)
                    .resource(
                        new PodBuilder()
                            .withNewMetadata()
                            .withName("empty")
                            .endMetadata()
                            .withNewSpec()
                            .endSpec()
                            .build())
                    .create());
    assertThat(e.getCode()).isEqualTo(422);
  }

  @Test
  void list_malformedLabelSelector_is400() {
    Raw raw = get(widgetsPath() + "?labelSelector=a%20in%20(b");
    assertThat(raw.code()).isEqualTo(400);
    assertThat(raw.body().path("reason").asText()).isEqualTo("BadRequest");
  }

  @Test
  void list_unsupportedFieldSelector_is400() {
    Raw raw = get("/api/v1/namespaces/" + ns + "/configmaps?fieldSelector=data.key%3Dx");
    assertThat(raw.code()).isEqualTo(400);
    assertThat(raw.body().path("reason").asText()).isEqualTo("BadRequest");
  }

  @Test
  void post_toNamedBuiltInObject_is405() {
    Raw raw =
        raw(
            "POST",
            "/api/v1/namespaces/" + ns + "/configmaps/named-post",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"named-post\"}}",
            Map.of());
    assertThat(raw.code()).isEqualTo(405);
    assertThat(raw.body().path("reason").asText()).isEqualTo("MethodNotAllowed");
  }

  @Test
  void post_toNamedCustomObject_createsTheBodyIgnoringThePathName() {
    Raw raw =
        raw(
            "POST",
            widgetsPath() + "/path-name",
            "application/json",
            "{\"apiVersion\":\"conformance.podset.io/v1\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"body-name\"},\"spec\":{\"replicas\":1}}",
            Map.of());
    assertThat(raw.code()).isEqualTo(201);
    assertThat(raw.body().path("metadata").path("name").asText()).isEqualTo("body-name");
    assertThat(widgets().withName("path-name").get()).isNull();
  }

  @Test
  void strategicMergePatch_onCustomResource_is415() {
    createWidget("smp", 1);
    Raw raw =
        raw(
            "PATCH",
            widgetsPath() + "/smp",
            "application/strategic-merge-patch+json",
            "{\"spec\":{\"replicas\":2}}",
            Map.of());
    assertThat(raw.code()).isEqualTo(415);
    assertThat(raw.body().path("reason").asText()).isEqualTo("UnsupportedMediaType");
  }

  @Test
  void create_yamlBody_isAccepted_unknownMediaType_is415NamingTheAcceptedOnes() {
    Raw yaml =
        raw(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "application/yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: b\n",
            Map.of());
    assertThat(yaml.code()).isEqualTo(201);
    assertThat(yaml.body().at("/data/a").asText()).isEqualTo("b");

    Raw xml =
        raw("POST", "/api/v1/namespaces/default/configmaps", "application/xml", "<x/>", Map.of());
    assertThat(xml.code()).isEqualTo(415);
    assertThat(xml.body().path("message").asText())
        .contains("application/json, application/yaml, application/vnd.kubernetes.protobuf");
  }

  @Test
  void create_malformedBody_is400() {
    Raw raw = raw("POST", widgetsPath(), "application/json", "{not json", Map.of());
    assertThat(raw.code()).isEqualTo(400);
    assertThat(raw.body().path("reason").asText()).isEqualTo("BadRequest");
  }

  @Test
  void create_unknownFieldWithStrictValidation_is400() {
    String body =
        "{\"apiVersion\":\"conformance.podset.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"strict\"},"
            + "\"spec\":{\"replicas\":1,\"bogus\":true}}";
    Raw raw =
        raw("POST", widgetsPath() + "?fieldValidation=Strict", "application/json", body, Map.of());
    assertThat(raw.code()).isEqualTo(400);
    assertThat(raw.body().path("message").asText()).contains("unknown field \"spec.bogus\"");
  }
}
