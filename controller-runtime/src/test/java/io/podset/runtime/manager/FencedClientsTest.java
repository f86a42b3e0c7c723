package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.client.LocalHttpServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FencedClientsTest {

  private static final String CONFIG_MAP =
      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\",\"resourceVersion\":\"5\"}}";

  private LocalHttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private KubernetesClient base;

  @BeforeEach
  void startServer() throws Exception {
    server =
        LocalHttpServer.start(
            1,
            exchange -> {
              received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
              byte[] body = CONFIG_MAP.getBytes(StandardCharsets.UTF_8);
              exchange.getResponseHeaders().add("Content-Type", "application/json");
              exchange.sendResponseHeaders(
                  "POST".equals(exchange.getRequestMethod()) ? 201 : 200, body.length);
              exchange.getResponseBody().write(body);
              exchange.close();
            });
    base = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void fenceDown_refusesWritesBeforeTheyLeaveTheProcess_butAllowsReads() {
    AtomicBoolean mayWrite = new AtomicBoolean(true);
    try (KubernetesClient client = FencedClients.fenced(base, mayWrite::get, "pod-a")) {
      var configMap =
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName("c")
              .withNamespace("ns")
              .endMetadata()
              .build();
      client.configMaps().inNamespace("ns").resource(configMap).create();
      assertThat(received).containsExactly("POST /api/v1/namespaces/ns/configmaps");

      mayWrite.set(false);
      assertThatThrownBy(() -> client.configMaps().inNamespace("ns").resource(configMap).create())
          .satisfies(e -> assertThat(FencedClients.isFenced(e)).isTrue())
          .hasStackTraceContaining("pod-a does not hold the leader lease");
      assertThat(client.configMaps().inNamespace("ns").withName("c").get()).isNotNull();
      assertThat(received)
          .containsExactly(
              "POST /api/v1/namespaces/ns/configmaps", "GET /api/v1/namespaces/ns/configmaps/c");
    }
  }
}
