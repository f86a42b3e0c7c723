package io.podset.testkit.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.admission.BuiltinResources;
import io.podset.testkit.internal.admission.CustomResources;
import io.podset.testkit.internal.admission.ServiceAddresses;
import io.podset.testkit.internal.resource.ContentHashes;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OpenApiV3Test {

  private final ResourceRegistry registry = new ResourceRegistry();
  private final OpenApiV3 openApi = new OpenApiV3(registry, "v1.34.4", Instant::now);

  OpenApiV3Test() {
    BuiltinResources.all(new ServiceAddresses(new ObjectStore(100))).forEach(registry::register);
  }

  private static JsonNode parse(OpenApiV3.Document doc) {
    try {
      return Json.parse(doc.json());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode crd(String description) {
    String json =
        """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"gadgets.example.com"},
         "spec":{"group":"example.com","scope":"Namespaced",
          "names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","listKind":"GadgetList"},
          "versions":[{"name":"v1","served":true,"storage":true,
           "subresources":{"scale":{"specReplicasPath":".spec.replicas",
                                    "statusReplicasPath":".status.replicas"}},
           "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
            "properties":{"replicas":{"type":"integer","description":"%s"}}}}}}}]}}
        """
            .formatted(description);
    try {
      return Json.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void builtinDocument_keepsServedPathsOnly_andTheSchemasTheyReach() {
    JsonNode real = RealDocuments.builtin("api/v1");
    assertThat(real.path("paths").has("/api/v1/namespaces/{namespace}/pods/{name}/log")).isTrue();
    assertThat(real.path("paths").has("/api/v1/componentstatuses")).isTrue();
    assertThat(real.path("components").path("schemas").has("io.k8s.api.core.v1.Binding")).isTrue();

    JsonNode doc = parse(openApi.document("v1"));
    JsonNode paths = doc.path("paths");
    assertThat(paths.has("/api/v1/namespaces/{namespace}/pods/{name}")).isTrue();
    assertThat(paths.has("/api/v1/namespaces/{namespace}/pods/{name}/status")).isTrue();
    assertThat(paths.has("/api/v1/watch/namespaces/{namespace}/pods")).isTrue();
    assertThat(paths.has("/api/v1/namespaces/{name}/status")).isTrue();
    assertThat(paths.has("/api/v1/namespaces/{namespace}/pods/{name}/log")).isFalse();
    assertThat(paths.has("/api/v1/namespaces/{name}/finalize")).isFalse();
    assertThat(paths.has("/api/v1/componentstatuses")).isFalse();
    JsonNode schemas = doc.path("components").path("schemas");
    assertThat(schemas.has("io.k8s.api.core.v1.Pod")).isTrue();
    assertThat(schemas.has("io.k8s.api.core.v1.Binding"))
        .as("reached only from pods/binding")
        .isFalse();
    assertThat(schemas.has("io.k8s.api.core.v1.ComponentStatus")).isFalse();
    assertThat(doc.path("info").path("version").asText()).isEqualTo("1.34");
  }

  @Test
  void document_hashIsTheSha512OfItsBytes_andChangesOnlyWithItsTypes() {
    OpenApiV3.Document apps = openApi.document("apps/v1");
    assertThat(apps.hash()).isEqualTo(ContentHashes.sha512(apps.json()));
    assertThat(openApi.document("example.com/v1")).isNull();

    CustomResources.typesOf(crd("Replicas.")).forEach(registry::register);
    OpenApiV3.Document first = openApi.document("example.com/v1");
    assertThat(
            parse(first)
                .at(
                    "/components/schemas/com.example.v1.Gadget/properties/spec/properties/replicas/description")
                .asText())
        .isEqualTo("Replicas.");
    assertThat(
            parse(first).path("components").path("schemas").has("io.k8s.api.autoscaling.v1.Scale"))
        .as("the scale subresource's schema")
        .isTrue();
    assertThat(
            openApi
                .index()
                .path("paths")
                .path("apis/example.com/v1")
                .path("serverRelativeURL")
                .asText())
        .isEqualTo("/openapi/v3/apis/example.com/v1?hash=" + first.hash());

    registry.replace("example.com", "gadgets", CustomResources.typesOf(crd("Replicas.")));
    assertThat(openApi.document("example.com/v1").hash())
        .as("same schema, same hash")
        .isEqualTo(first.hash());
    registry.replace("example.com", "gadgets", CustomResources.typesOf(crd("How many.")));
    assertThat(openApi.document("example.com/v1").hash()).isNotEqualTo(first.hash());
    assertThat(openApi.document("apps/v1")).isSameAs(apps);

    registry.unregister("example.com", "gadgets");
    assertThat(openApi.document("example.com/v1")).isNull();
    assertThat(openApi.index().path("paths").has("apis/example.com/v1")).isFalse();
  }

  @Test
  void concurrentReadersAndCrdUpdates_alwaysSeeAWholeDocumentWithItsOwnHash() throws Exception {
    List<JsonNode> versions = List.of(crd("one"), crd("two"));
    CustomResources.typesOf(versions.get(0)).forEach(registry::register);
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    CountDownLatch done = new CountDownLatch(3);
    List<Thread> threads = new ArrayList<>();
    threads.add(
        new Thread(
            () -> {
              for (int i = 0; i < 200; i++) {
                registry.replace(
                    "example.com", "gadgets", CustomResources.typesOf(versions.get(i % 2)));
              }
              stop.set(true);
              done.countDown();
            }));
    for (int r = 0; r < 2; r++) {
      threads.add(
          new Thread(
              () -> {
                while (!stop.get()) {
                  OpenApiV3.Document doc = openApi.document("example.com/v1");
                  if (!doc.hash().equals(ContentHashes.sha512(doc.json()))) {
                    problems.add("hash of other bytes");
                  }
                  String d =
                      parse(doc)
                          .at(
                              "/components/schemas/com.example.v1.Gadget/properties/spec/properties/replicas/description")
                          .asText();
                  if (!d.equals("one") && !d.equals("two")) {
                    problems.add("description " + d);
                  }
                }
                done.countDown();
              }));
    }
    threads.forEach(Thread::start);
    assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
    assertThat(problems).isEmpty();
    // The last of the 200 replacements installed the second version.
    assertThat(parse(openApi.document("example.com/v1")).toString()).contains("\"two\"");
  }
}
