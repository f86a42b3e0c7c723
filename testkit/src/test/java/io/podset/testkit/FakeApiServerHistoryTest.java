package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake's own knobs: history window, bookmarks and timeouts on a manual clock, compaction. */
class FakeApiServerHistoryTest {

  private final ManualClock clock = new ManualClock();
  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server =
        FakeApiServer.builder()
            .historyWindow(5)
            .bookmarkInterval(Duration.ofSeconds(1))
            .clock(clock)
            .start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private ConfigMap configMap(String name) {
    return client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private void touch(String name, int times) {
    for (int i = 0; i < times; i++) {
      int value = i;
      client
          .configMaps()
          .withName(name)
          .edit(
              c -> {
                c.setData(Map.of("i", Integer.toString(value)));
                return c;
              });
    }
  }

  @Test
  void watch_fromBeyondHistoryWindow_getsErrorEvent410() throws Exception {
    ConfigMap first = configMap("old");
    touch("old", 6);
    try (HttpWatch watch =
        new HttpWatch(
            server.url(),
            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                + first.getMetadata().getResourceVersion())) {
      JsonNode error = watch.next();
      assertThat(error.path("type").asText()).isEqualTo("ERROR");
      assertThat(error.path("object").path("code").asInt()).isEqualTo(410);
      assertThat(error.path("object").path("reason").asText()).isEqualTo("Expired");
      assertThat(watch.awaitEnd()).isTrue();
    }
  }

  @Test
  void watch_withinHistoryWindow_resumes() throws Exception {
    ConfigMap first = configMap("recent");
    touch("recent", 3);
    try (HttpWatch watch =
        new HttpWatch(
            server.url(),
            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                + first.getMetadata().getResourceVersion())) {
      for (int i = 0; i < 3; i++) {
        assertThat(watch.next().path("type").asText()).isEqualTo("MODIFIED");
      }
    }
  }

  @Test
  void compactHistory_makesEveryOlderRevisionExpire() {
    ConfigMap first = configMap("compacted");
    touch("compacted", 1);
    server.compactHistory();
    KubernetesClientException e =
        Assertions.catchThrowableOfType(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .list(
                        new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
                            .withResourceVersion(first.getMetadata().getResourceVersion())
                            .withResourceVersionMatch("Exact")
                            .build()));
    assertThat(e).isNotNull();
    assertThat(e.getCode()).isEqualTo(410);
  }

  @Test
  void continueToken_afterHistoryMovedOn_is410() {
    for (int i = 0; i < 3; i++) {
      configMap("page-" + i);
    }
    var page =
        client
            .configMaps()
            .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(1L).build());
    touch("page-0", 6);
    KubernetesClientException e =
        Assertions.catchThrowableOfType(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .list(
                        new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
                            .withLimit(1L)
                            .withContinue(page.getMetadata().getContinue())
                            .build()));
    assertThat(e).isNotNull();
    assertThat(e.getCode()).isEqualTo(410);
    assertThat(e.getStatus().getReason()).isEqualTo("Expired");
  }

  @Test
  void list_exactRevision_returnsThePastState() {
    ConfigMap before = configMap("past");
    touch("past", 2);
    var past =
        client
            .configMaps()
            .list(
                new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
                    .withResourceVersion(before.getMetadata().getResourceVersion())
                    .withResourceVersionMatch("Exact")
                    .build());
    assertThat(past.getItems()).hasSize(1);
    assertThat(past.getItems().get(0).getData()).isNullOrEmpty();
    assertThat(past.getMetadata().getResourceVersion())
        .isEqualTo(before.getMetadata().getResourceVersion());
  }

  @Test
  void bookmarks_arriveEachIntervalOfTheServerClock() throws Exception {
    configMap("bm");
    try (HttpWatch watch =
        new HttpWatch(
            server.url(),
            "/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion="
                + server.resourceVersion())) {
      assertThat(watch.isEmpty()).isTrue();
      clock.advance(Duration.ofSeconds(1));
      JsonNode bookmark = watch.next();
      assertThat(bookmark.path("type").asText()).isEqualTo("BOOKMARK");
      assertThat(bookmark.path("object").path("kind").asText()).isEqualTo("ConfigMap");
      assertThat(bookmark.path("object").path("metadata").path("resourceVersion").asLong())
          .isEqualTo(server.resourceVersion());
      touch("bm", 1);
      assertThat(watch.next().path("type").asText()).isEqualTo("MODIFIED");
      clock.advance(Duration.ofSeconds(1));
      assertThat(watch.next().path("object").path("metadata").path("resourceVersion").asLong())
          .isEqualTo(server.resourceVersion());
    }
  }

  @Test
  void timeoutSeconds_endsTheWatchOnTheServerClock() throws Exception {
    try (HttpWatch watch =
        new HttpWatch(
            server.url(), "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=30")) {
      clock.advance(Duration.ofSeconds(29));
      assertThat(server.openWatches()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(1));
      assertThat(watch.awaitEnd()).isTrue();
      assertThat(server.openWatches()).isZero();
    }
  }

  @Test
  void closeWatches_endsEveryOpenWatch() throws Exception {
    try (HttpWatch a =
            new HttpWatch(server.url(), "/api/v1/namespaces/default/configmaps?watch=true");
        HttpWatch b = new HttpWatch(server.url(), "/api/v1/pods?watch=true")) {
      assertThat(server.openWatches()).isEqualTo(2);
      server.closeWatches();
      assertThat(a.awaitEnd()).isTrue();
      assertThat(b.awaitEnd()).isTrue();
      assertThat(server.openWatches()).isZero();
    }
  }

  @Test
  void creationTimestamp_comesFromTheServerClock() {
    assertThat(configMap("stamped").getMetadata().getCreationTimestamp())
        .isEqualTo("2026-01-01T00:00:00Z");
  }
}
