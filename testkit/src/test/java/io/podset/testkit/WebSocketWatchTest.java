package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebSocketWatchTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  // A server per test: each starts from an empty store.
  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  @Test
  void webSocketUpgrade_deliversOneEventPerTextMessage() throws Exception {
    client.configMaps().resource(configMap("before")).create();
    BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    URI uri =
        URI.create(
            "ws://"
                + server.url().getAuthority()
                + "/api/v1/namespaces/default/configmaps?watch=true");
    WebSocket socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .buildAsync(
                uri,
                new WebSocket.Listener() {
                  private final StringBuilder partial = new StringBuilder();

                  @Override
                  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                      messages.add(partial.toString());
                      partial.setLength(0);
                    }
                    ws.request(1);
                    return null;
                  }
                })
            .get(10, TimeUnit.SECONDS);
    JsonNode first = JSON.readTree(messages.poll(10, TimeUnit.SECONDS));
    assertThat(first.path("type").asText()).isEqualTo("ADDED");
    assertThat(first.path("object").path("metadata").path("name").asText()).isEqualTo("before");
    client.configMaps().resource(configMap("after")).create();
    JsonNode second = JSON.readTree(messages.poll(10, TimeUnit.SECONDS));
    assertThat(second.path("object").path("metadata").path("name").asText()).isEqualTo("after");
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    Eventually.await("the watch to close", server::openWatches, open -> open == 0);
  }

  @Test
  void fabric8Informer_listsThenFollowsChanges() throws Exception {
    client.configMaps().resource(configMap("listed")).create();
    List<String> seen = new CopyOnWriteArrayList<>();
    SharedIndexInformer<ConfigMap> informer =
        client
            .configMaps()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap obj) {
                    seen.add("add:" + obj.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
                    seen.add("update:" + newObj.getMetadata().getName());
                  }

                  @Override
                  public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
                    seen.add("delete:" + obj.getMetadata().getName());
                  }
                });
    try {
      client.configMaps().resource(configMap("watched")).create();
      client.configMaps().withName("listed").delete();
      Eventually.await("three events", () -> List.copyOf(seen), events -> events.size() >= 3);
      assertThat(seen).containsExactly("add:listed", "add:watched", "delete:listed");
    } finally {
      informer.close();
    }
  }
}
