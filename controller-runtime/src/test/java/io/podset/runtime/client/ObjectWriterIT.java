package io.podset.runtime.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The writer against a minimal HTTP server that records requests and answers as scripted. */
class ObjectWriterIT {

  private LocalHttpServer server;
  private KubernetesClient client;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private volatile int code = 201;
  private volatile String answer = "{}";

  @BeforeEach
  void startServer() throws IOException {
    server = LocalHttpServer.start(2, this::handle);
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), UTF_8);
    requests.add(
        exchange.getRequestMethod()
            + " "
            + exchange.getRequestURI().getPath()
            + " "
            + exchange.getRequestHeaders().getFirst("Content-Type")
            + " "
            + body);
    byte[] out = answer.getBytes(UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, out.length);
    try (OutputStream stream = exchange.getResponseBody()) {
      stream.write(out);
    }
  }

  @Test
  void create_namespaced_postsToItsCollectionAndReturnsTheWrittenIdentity() {
    answer =
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"generateName\":\"cm-\","
            + "\"labels\":{\"uid\":\"not-this-one\"},\"managedFields\":[{\"manager\":\"x\"}],"
            + "\"name\":\"cm-x7k2p\",\"namespace\":\"ns\",\"uid\":\"u-1\","
            + "\"resourceVersion\":\"42\"},\"data\":{\"metadata\":\"no\"}}";
    ConfigMap configMap =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withGenerateName("cm-")
            .withNamespace("ns")
            .endMetadata()
            .addToData("k", "v")
            .build();

    WrittenObject written = ObjectWriter.of(client).create(configMap);

    assertThat(written).isEqualTo(new WrittenObject("ns", "cm-x7k2p", "u-1", "42"));
    assertThat(requests)
        .singleElement()
        .asString()
        .startsWith("POST /api/v1/namespaces/ns/configmaps application/json")
        .contains("\"generateName\":\"cm-\"", "\"k\":\"v\"");
  }

  @Test
  void create_clusterScoped_postsWithoutANamespace() {
    answer = "{\"metadata\":{\"name\":\"team\",\"uid\":\"u-2\",\"resourceVersion\":\"7\"}}";
    Namespace namespace =
        new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build();

    WrittenObject written = ObjectWriter.of(client).create(namespace);

    assertThat(written).isEqualTo(new WrittenObject(null, "team", "u-2", "7"));
    assertThat(requests).singleElement().asString().startsWith("POST /api/v1/namespaces ");
  }

  @Test
  void patch_subresourceOfAGroupedType_sendsThePatchWithItsContentType() {
    code = 200;
    answer =
        "{\"metadata\":{\"name\":\"web\",\"namespace\":\"ns\",\"uid\":\"u-3\",\"resourceVersion\":\"9\"}}";
    String patch = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{}}]";

    WrittenObject written =
        ObjectWriter.of(client)
            .patch(Deployment.class, "ns", "web", "status", PatchType.JSON, patch);

    assertThat(written.resourceVersion()).isEqualTo("9");
    assertThat(requests)
        .containsExactly(
            "PATCH /apis/apps/v1/namespaces/ns/deployments/web/status application/json-patch+json "
                + patch);
  }

  @Test
  void create_refused_throwsWithTheCodeAndTheServersStatus() {
    code = 403;
    answer =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":403,"
            + "\"reason\":\"Forbidden\",\"message\":\"exceeded quota: pods\"}";
    ConfigMap configMap =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("a")
            .withNamespace("ns")
            .endMetadata()
            .build();

    assertThatThrownBy(() -> ObjectWriter.of(client).create(configMap))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(403);
              assertThat(e.getStatus().getMessage()).isEqualTo("exceeded quota: pods");
              assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
            });
  }

  @Test
  void patch_answerNotAStatus_throwsWithTheCodeAndTheText() {
    code = 502;
    answer = "bad gateway";

    assertThatThrownBy(
            () ->
                ObjectWriter.of(client)
                    .patch(ConfigMap.class, "ns", "a", null, PatchType.JSON_MERGE, "{}"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(502);
              assertThat(e.getStatus().getMessage()).isEqualTo("bad gateway");
            });
    assertThat(requests)
        .containsExactly(
            "PATCH /api/v1/namespaces/ns/configmaps/a application/merge-patch+json {}");
  }

  @Test
  void create_answerWithoutMetadata_throws() {
    answer = "{\"kind\":\"ConfigMap\"}";
    ConfigMap configMap =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("a")
            .withNamespace("ns")
            .endMetadata()
            .build();

    assertThatThrownBy(() -> ObjectWriter.of(client).create(configMap))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("cannot read the answer");
  }

  @Test
  void badArguments_rejectedNamingTheField() {
    ObjectWriter writer = ObjectWriter.of(client);
    ConfigMap noNamespace =
        new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().build();

    assertThatThrownBy(() -> writer.create(noNamespace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a ConfigMap to create needs metadata.namespace");
    assertThatThrownBy(
            () -> writer.patch(ConfigMap.class, "ns", "a", null, PatchType.SERVER_SIDE_APPLY, "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("patchType SERVER_SIDE_APPLY needs a field manager");
    assertThatThrownBy(() -> writer.patch(ConfigMap.class, "ns", "", null, PatchType.JSON, "[]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("name must not be empty");
    assertThat(requests).isEmpty();
  }
}
