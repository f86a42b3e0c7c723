package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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

  private HttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private KubernetesClient base;

  @BeforeEach
  void startServer() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
          byte[] body = CONFIG_MAP.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(
              "POST".equals(exchange.getRequestMethod()) ? 201 : 200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
            .withRequestRetryBackoffLimit(0)
            .build();
    base = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    base.close();
    server.stop(0);
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
