package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchHandle;
import io.podset.runtime.informer.transport.WatchListener;
import io.podset.runtime.informer.transport.WatchRequest;
import io.podset.runtime.informer.transport.WatchTransport;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ListerWatchers (and the transport under it) against a minimal HTTP server speaking list and
 * watch.
 */
class ListerWatchersIT {

  /** Generous: the first requests load and warm up the whole HTTP stack on a busy machine. */
  private static final long WAIT_SECONDS = 60;

  private static final String POD =
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\","
          + "\"resourceVersion\":\"11\"}}";

  private HttpServer server;
  private KubernetesClient client;
  private final List<String> queries = new CopyOnWriteArrayList<>();
  private final CountDownLatch stopStreams = new CountDownLatch(1);
  private volatile String listBody =
      "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"10\","
          + "\"continue\":\"next-page\"},\"items\":["
          + POD
          + "]}";
  private volatile List<String> watchLines = List.of();
  private volatile boolean endWatchStream;

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
            .withRequestRetryBackoffLimit(0)
            .withOnlyHttpWatches(true)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    stopStreams.countDown();
    client.close();
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String decoded = query == null ? "" : URLDecoder.decode(query, StandardCharsets.UTF_8);
    queries.add(exchange.getRequestURI().getPath() + "?" + decoded);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (!decoded.contains("watch=true")) {
      byte[] body = listBody.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
      return;
    }
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    for (String line : watchLines) {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
    if (!endWatchStream) {
      try {
        stopStreams.await(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    exchange.close();
  }

  /** Collects what a watch delivers. */
  private static final class Collector<T extends io.fabric8.kubernetes.api.model.HasMetadata>
      implements WatchListener<T> {
    final List<WatchEvent<T>> events = new CopyOnWriteArrayList<>();
    final CompletableFuture<RuntimeException> closed = new CompletableFuture<>();

    @Override
    public void onEvent(WatchEvent<T> event) {
      events.add(event);
    }

    @Override
    public void onClose(RuntimeException cause) {
      closed.complete(cause);
    }
  }

  private ListerWatcher<Pod> pods() {
    return pods(WatchTransport.HTTP_STREAM);
  }

  private ListerWatcher<Pod> pods(WatchTransport transport) {
    return ListerWatchers.forResource(
        client,
        Pod.class,
        InformerOptions.builder()
            .namespace("ns")
            .labelSelector("app=web")
            .fieldSelector("status.phase=Running")
            .watchTransport(transport)
            .build());
  }

  @Test
  void list_sendsVersionLimitAndSelectors_andReadsTheContinueToken() {
    ListPage<Pod> page = pods().list(new ListRequest("0", 500, null));

    assertThat(page.items()).extracting(p -> p.getMetadata().getName()).containsExactly("a");
    assertThat(page.resourceVersion()).isEqualTo("10");
    assertThat(page.continueToken()).isEqualTo("next-page");
    assertThat(queries.get(0))
        .startsWith("/api/v1/namespaces/ns/pods?")
        .contains("limit=500", "resourceVersion=0", "labelSelector=app=web")
        .contains("fieldSelector=status.phase=Running");
  }

  @Test
  void list_continuationPage_sendsTheTokenAndNoVersion() {
    pods().list(new ListRequest("", 500, "next-page"));

    assertThat(queries.get(0)).contains("continue=next-page").doesNotContain("resourceVersion");
  }

  @Test
  void watch_deliversEventsAndBookmarks_thenGoneAsA410() throws Exception {
    watch_deliversEventsAndBookmarks_thenGoneAsA410(WatchTransport.HTTP_STREAM);
  }

  @Test
  void fabric8Watch_deliversEventsAndBookmarks_thenGoneAsA410() throws Exception {
    watch_deliversEventsAndBookmarks_thenGoneAsA410(WatchTransport.FABRIC8);
  }

  private void watch_deliversEventsAndBookmarks_thenGoneAsA410(WatchTransport transport)
      throws Exception {
    watchLines =
        List.of(
            "{\"type\":\"ADDED\",\"object\":" + POD + "}",
            "{\"type\":\"BOOKMARK\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"metadata\":{\"resourceVersion\":\"12\"}}}",
            "{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\","
                + "\"status\":\"Failure\",\"code\":410,\"reason\":\"Expired\","
                + "\"message\":\"too old resource version\"}}");
    endWatchStream = true;
    Collector<Pod> collector = new Collector<>();

    pods(transport).watch(new WatchRequest("10", Duration.ofMinutes(5), true, false), collector);

    RuntimeException cause = collector.closed.get(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(ApiErrors.isGone(cause)).isTrue();
    assertThat(collector.events).hasSize(2);
    assertThat(collector.events.get(0)).isInstanceOf(WatchEvent.Added.class);
    assertThat(collector.events.get(1)).isEqualTo(new WatchEvent.Bookmark<Pod>("12", null));
    assertThat(queries.get(0))
        .contains("watch=true", "resourceVersion=10", "allowWatchBookmarks=true")
        .contains("timeoutSeconds=300", "labelSelector=app=web");
  }

  @Test
  void fabric8Watch_endedByTheServerAtItsTimeout_isANormalEnd_elseAFailure_andNeverReconnects()
      throws Exception {
    watchLines = List.of("{\"type\":\"ADDED\",\"object\":" + POD + "}");
    endWatchStream = true;
    Collector<Pod> atTimeout = new Collector<>();
    Collector<Pod> early = new Collector<>();

    ListerWatcher<Pod> pods = pods(WatchTransport.FABRIC8);
    pods.watch(new WatchRequest("10", Duration.ofSeconds(1), true, false), atTimeout);
    assertThat(atTimeout.closed.get(WAIT_SECONDS, TimeUnit.SECONDS)).isNull();
    pods.watch(new WatchRequest("10", Duration.ofMinutes(5), true, false), early);

    assertThat(early.closed.get(WAIT_SECONDS, TimeUnit.SECONDS)).isNotNull();
    assertThat(queries).hasSize(2);
  }

  @Test
  void watch_closedByTheClient_reportsNoEnd() throws Exception {
    Collector<Pod> collector = new Collector<>();
    WatchHandle handle =
        pods().watch(new WatchRequest("10", Duration.ofMinutes(5), true, false), collector);

    handle.close();
    stopStreams.countDown();

    assertThat(collector.closed).isNotDone();
  }

  @Test
  void streamingList_asksForInitialEventsNotOlderThanTheVersion() {
    WatchHandle handle =
        pods().watch(new WatchRequest("", Duration.ofMinutes(5), true, true), new Collector<>());
    Awaits.until(() -> !queries.isEmpty(), "the watch request");
    handle.close();

    assertThat(queries.get(0))
        .contains("sendInitialEvents=true", "resourceVersionMatch=NotOlderThan")
        .doesNotContain("resourceVersion=&");
  }

  @Test
  void genericResources_areListedThroughTheirContext() {
    listBody =
        "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":\"PodSetList\",\"metadata\":"
            + "{\"resourceVersion\":\"7\"},\"items\":[{\"apiVersion\":\"app.example.com/v1alpha1\","
            + "\"kind\":\"PodSet\",\"metadata\":{\"name\":\"ps\",\"namespace\":\"ns\","
            + "\"resourceVersion\":\"6\"},\"spec\":{\"replicas\":3}}]}";
    ResourceDefinitionContext context =
        new ResourceDefinitionContext.Builder()
            .withGroup("app.example.com")
            .withVersion("v1alpha1")
            .withKind("PodSet")
            .withPlural("podsets")
            .withNamespaced(true)
            .build();

    ListPage<GenericKubernetesResource> page =
        ListerWatchers.forResource(client, context, InformerOptions.defaults())
            .list(new ListRequest("0", 500, null));

    assertThat(page.items()).extracting(r -> r.getMetadata().getName()).containsExactly("ps");
    assertThat(queries.get(0)).startsWith("/apis/app.example.com/v1alpha1/podsets?");
  }

  @Test
  void namespace_forAClusterScopedType_isRejected() {
    assertThatThrownBy(
            () ->
                ListerWatchers.forResource(
                    client, Namespace.class, InformerOptions.defaults().withNamespace("ns")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ns")
        .hasMessageContaining("cluster-scoped");
  }
}
