package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault proxy in front of a real kube-apiserver: each kind of fault changes what a client sees
 * (each test would fail if the proxy passed the traffic through unchanged), requests are forwarded
 * and journaled as the fake's are, and many concurrent requests and watches pass at once.
 */
class FaultProxyIT {

  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  private static RealApiServer server;

  private final HttpClient raw =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final List<AutoCloseable> closing = new ArrayList<>();
  private FaultProxy proxy;
  private KubernetesClient client;
  private String namespace;

  @BeforeAll
  static void startServer() {
    try {
      server = RealApiServer.builder().start();
    } catch (ControlPlaneBinariesMissingException e) {
      if (ControlPlaneBinaries.required()) {
        throw e;
      }
      Assumptions.abort("skipped: " + e.getMessage());
    }
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void startProxy() {
    namespace = "proxy-" + NAMESPACES.incrementAndGet();
    server
        .client()
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    proxy = FaultProxy.forwardingTo(server.clientConfig()).start();
    client = clientWithUserAgent("fault-proxy-it");
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private KubernetesClient clientWithUserAgent(String userAgent) {
    KubernetesClient c =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(proxy.clientConfig())
                    .withNamespace(namespace)
                    .withUserAgent(userAgent)
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    closing.add(c);
    return c;
  }

  private String path(String rest) {
    return "/api/v1/namespaces/" + namespace + "/" + rest;
  }

  private HttpResponse<byte[]> get(String pathAndQuery) throws Exception {
    return raw.send(
        HttpRequest.newBuilder(proxy.url().resolve(pathAndQuery)).timeout(DEADLINE).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }

  @Test
  void requests_reachTheRealServer_andAreJournaledAsTheFakeResolvesThem() throws Exception {
    client.configMaps().resource(configMap("a")).create();
    assertThat(server.client().configMaps().inNamespace(namespace).withName("a").get())
        .as("created on the real server through the proxy")
        .isNotNull();
    assertThat(client.configMaps().withName("a").get().getData()).containsEntry("k", "v");
    HttpResponse<byte[]> status = get("/api/v1/namespaces/" + namespace + "/status");
    assertThat(status.statusCode()).isEqualTo(200);

    List<RequestRecord> records = proxy.journal().records();
    assertThat(records)
        .anySatisfy(
            r -> {
              assertThat(r.verb()).isEqualTo("create");
              assertThat(r.resource()).isEqualTo("configmaps");
              assertThat(r.namespace()).isEqualTo(namespace);
              assertThat(r.status()).isEqualTo(201);
              assertThat(r.userAgent()).isEqualTo("fault-proxy-it");
            })
        .anySatisfy(
            r -> {
              assertThat(r.verb()).isEqualTo("get");
              assertThat(r.name()).isEqualTo("a");
              assertThat(r.status()).isEqualTo(200);
            })
        .anySatisfy(
            r -> {
              assertThat(r.resource()).isEqualTo("namespaces");
              assertThat(r.name()).isEqualTo(namespace);
              assertThat(r.subresource()).isEqualTo("status");
            });
    assertThat(records).allSatisfy(r -> assertThat(r.fault()).isNull());
  }

  @Test
  void status429_answersInsteadOfTheServer_withRetryAfter_thenForwardsAgain() throws Exception {
    FaultInjector.Handle rule =
        proxy
            .faults()
            .add(
                FaultRule.match()
                    .verbs("list")
                    .resource("configmaps")
                    .times(1)
                    .inject(Fault.tooManyRequests(Duration.ofSeconds(3))));

    HttpResponse<byte[]> refused = get(path("configmaps"));
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("3");
    assertThat(new String(refused.body(), StandardCharsets.UTF_8))
        .contains("\"kind\":\"Status\"")
        .contains("\"retryAfterSeconds\":3");
    HttpResponse<byte[]> served = get(path("configmaps"));
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(new String(served.body(), StandardCharsets.UTF_8)).contains("ConfigMapList");

    assertThat(rule.injected()).isEqualTo(1);
    proxy.journal().assertCount(RequestMatcher.verb("list").resource("configmaps").status(429), 1);
    assertThat(proxy.journal().records(RequestMatcher.verb("list").status(429)).get(0).fault())
        .contains("429");
  }

  @Test
  void kubectl_throughTheProxysKubeconfig_reachesTheServer_andMeetsItsFaults(@TempDir Path dir) {
    client.configMaps().resource(configMap("seen-by-kubectl")).create();
    Kubectl kubectl =
        Kubectl.using(proxy.writeKubeconfig(dir.resolve("kubeconfig")), dir.resolve("cache"));

    Kubectl.Result listed = kubectl.run("get", "configmaps", "-n", namespace, "-o", "name");
    assertThat(listed.exitCode()).as(listed.output()).isZero();
    assertThat(listed.output()).contains("configmap/seen-by-kubectl");
    RequestMatcher kubectlLists =
        RequestMatcher.verb("list").resource("configmaps").namespace(namespace);
    assertThat(proxy.journal().records(kubectlLists))
        .singleElement()
        .satisfies(r -> assertThat(r.userAgent()).startsWith("kubectl"));

    proxy
        .faults()
        .add(
            FaultRule.match()
                .verbs("list")
                .resource("configmaps")
                .namespace(namespace)
                .inject(Fault.serverError(500)));
    Kubectl.Result refused = kubectl.run("get", "configmaps", "-n", namespace, "-o", "name");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.output()).contains("injected fault").doesNotContain("seen-by-kubectl");
  }

  @Test
  void serverError_reachesTheFabric8Client() {
    proxy
        .faults()
        .add(
            FaultRule.match()
                .verbs("create")
                .resource("configmaps")
                .inject(Fault.serverError(503)));

    assertThatThrownBy(() -> client.configMaps().resource(configMap("b")).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(503));
    assertThat(server.client().configMaps().inNamespace(namespace).withName("b").get())
        .as("the refused create never reached the server")
        .isNull();
  }

  @Test
  void latency_delaysTheAnswer() throws Exception {
    Duration latency = Duration.ofMillis(800);
    proxy
        .faults()
        .add(FaultRule.match().verbs("get").resource("namespaces").inject(Fault.latency(latency)));

    long start = System.nanoTime();
    HttpResponse<byte[]> response = get("/api/v1/namespaces/" + namespace);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(took).isGreaterThanOrEqualTo(latency);
    assertThat(proxy.journal().records(RequestMatcher.verb("get").resource("namespaces")))
        .singleElement()
        .satisfies(r -> assertThat(r.duration()).isGreaterThanOrEqualTo(latency));
  }

  /** Opens a raw watch through the proxy; the body is read on another thread. */
  private RawWatch rawWatch(String query) throws Exception {
    HttpResponse<InputStream> response =
        raw.send(
            HttpRequest.newBuilder(proxy.url().resolve(path("configmaps?watch=true" + query)))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    RawWatch watch = new RawWatch(response);
    closing.add(watch);
    return watch;
  }

  /** The bytes of a watch body as they come, and how it ended. */
  private static final class RawWatch implements AutoCloseable {
    final int status;
    final InputStream body;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CompletableFuture<String> end = new CompletableFuture<>();

    RawWatch(HttpResponse<InputStream> response) {
      this.status = response.statusCode();
      this.body = response.body();
      Thread reader =
          new Thread(
              () -> {
                byte[] buffer = new byte[8192];
                try {
                  int n;
                  while ((n = body.read(buffer)) >= 0) {
                    synchronized (bytes) {
                      bytes.write(buffer, 0, n);
                    }
                  }
                  end.complete("eof");
                } catch (IOException e) {
                  end.complete("broken: " + e);
                }
              },
              "raw-watch");
      reader.setDaemon(true);
      reader.start();
    }

    String text() {
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }

    String awaitEnd() throws Exception {
      return end.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws IOException {
      body.close();
    }
  }

  @Test
  void dropWatch_endsANewWatchAtOnce() throws Exception {
    proxy.faults().add(FaultRule.match().verbs("watch").times(1).inject(Fault.dropWatch()));

    RawWatch dropped = rawWatch("");
    assertThat(dropped.status).isEqualTo(200);
    assertThat(dropped.awaitEnd()).isEqualTo("eof");
    assertThat(dropped.text()).isEmpty();

    RawWatch kept = rawWatch("");
    client.configMaps().resource(configMap("c")).create();
    Eventually.within(DEADLINE)
        .until("the next watch to see the create", () -> kept.text().contains("ADDED"));
    assertThat(kept.end).isNotDone();
  }

  @Test
  void dropWatches_endsTheOpenWatches() throws Exception {
    RawWatch open = rawWatch("");
    Eventually.within(DEADLINE)
        .until("the watch to open", () -> proxy.journal().count(RequestMatcher.verb("watch")) == 1);

    assertThat(proxy.faults().dropWatches("configmaps")).isEqualTo(1);

    assertThat(open.awaitEnd()).isEqualTo("eof");
  }

  @Test
  void cutResponse_breaksACompleteAnswerHalfway() throws Exception {
    for (int i = 0; i < 5; i++) {
      client.configMaps().resource(configMap("cm-" + i)).create();
    }
    proxy
        .faults()
        .add(FaultRule.match().verbs("list").resource("configmaps").inject(Fault.cutResponse()));

    assertThatThrownBy(() -> get(path("configmaps"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> client.configMaps().list())
        .isInstanceOf(KubernetesClientException.class);
    assertThat(proxy.journal().records(RequestMatcher.verb("list").resource("configmaps")))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.fault()).isEqualTo("cut response"));
  }

  @Test
  void cutResponse_breaksAWatchInTheMiddleOfItsNextEvent() throws Exception {
    proxy
        .faults()
        .add(FaultRule.match().verbs("watch").resource("configmaps").inject(Fault.cutResponse()));
    RawWatch watch = rawWatch("");
    Eventually.within(DEADLINE)
        .until("the watch to open", () -> proxy.journal().count(RequestMatcher.verb("watch")) == 1);

    client.configMaps().resource(configMap("d")).create();

    assertThat(watch.awaitEnd()).startsWith("broken");
    String text = watch.text();
    assertThat(text).as("half an event").startsWith("{\"type\":\"ADDED\"").doesNotContain("\n");
  }

  /** Records the names of added ConfigMaps and when each arrived. */
  private static final class Arrivals implements Watcher<ConfigMap> {
    final Map<String, Long> added = new ConcurrentHashMap<>();

    @Override
    public void eventReceived(Action action, ConfigMap resource) {
      if (action == Action.ADDED) {
        added.putIfAbsent(resource.getMetadata().getName(), System.nanoTime());
      }
    }

    @Override
    public void onClose(WatcherException cause) {}
  }

  private Arrivals watchAs(String userAgent) {
    Arrivals arrivals = new Arrivals();
    Watch watch = clientWithUserAgent(userAgent).configMaps().watch(arrivals);
    closing.add(0, watch::close);
    return arrivals;
  }

  private void awaitWatches(int n) {
    Eventually.within(DEADLINE)
        .until(
            n + " watches to open", () -> proxy.journal().count(RequestMatcher.verb("watch")) >= n);
  }

  @Test
  void holdEvents_keepsEventsBackUntilTheRuleIsRemoved() {
    FaultInjector.Handle hold =
        proxy
            .faults()
            .add(
                FaultRule.match()
                    .resource("configmaps")
                    .userAgentContaining("held")
                    .inject(Fault.holdEvents()));
    Arrivals held = watchAs("held-watcher");
    Arrivals free = watchAs("free-watcher");
    awaitWatches(2);

    client.configMaps().resource(configMap("e")).create();

    Eventually.within(DEADLINE)
        .until("the free watcher to see it", () -> free.added.containsKey("e"));
    assertThat(held.added).doesNotContainKey("e");
    assertThat(hold.injected()).as("events held back").isPositive();
    hold.remove();
    Eventually.within(DEADLINE)
        .until("the held watcher to see it", () -> held.added.containsKey("e"));
  }

  @Test
  void delayEvents_deliversEachEventThatMuchLater() {
    Duration delay = Duration.ofMillis(1500);
    proxy
        .faults()
        .add(
            FaultRule.match()
                .resource("configmaps")
                .userAgentContaining("delayed")
                .inject(Fault.delayEvents(delay)));
    Arrivals delayed = watchAs("delayed-watcher");
    Arrivals free = watchAs("free-watcher");
    awaitWatches(2);

    long created = System.nanoTime();
    client.configMaps().resource(configMap("f")).create();

    Eventually.within(DEADLINE)
        .until(
            "both watchers to see it",
            () -> delayed.added.containsKey("f") && free.added.containsKey("f"));
    assertThat(Duration.ofNanos(delayed.added.get("f") - created)).isGreaterThanOrEqualTo(delay);
    assertThat(Duration.ofNanos(free.added.get("f") - created)).isLessThan(delay);
  }

  @Test
  void compactHistory_isRefused_namingTheRule() {
    assertThatThrownBy(
            () ->
                proxy.faults().add(FaultRule.match().verbs("watch").inject(Fault.compactHistory())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compact history on [watch]");
  }

  @Test
  void manyConcurrentRequestsAndWatches_areAllServed() throws Exception {
    int watchers = 16;
    int requests = 96;
    proxy
        .faults()
        .add(
            FaultRule.match()
                .verbs("get")
                .probability(0.5)
                .inject(Fault.latency(Duration.ofMillis(100))));
    List<Arrivals> arrivals = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> started = new ArrayList<>();
      for (int i = 0; i < watchers; i++) {
        int n = i;
        started.add(pool.submit(() -> arrivals.add(watchAs("watcher-" + n))));
      }
      for (Future<?> f : started) {
        f.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      }
      awaitWatches(watchers);
      client.configMaps().resource(configMap("shared")).create();
      List<Future<Integer>> answers = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        answers.add(pool.submit(() -> get("/api/v1/namespaces/" + namespace).statusCode()));
      }
      for (Future<Integer> answer : answers) {
        assertThat(answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(200);
      }
      Eventually.within(DEADLINE)
          .until(
              "every watcher to see the create",
              () -> arrivals.stream().allMatch(a -> a.added.containsKey("shared")));
    } finally {
      pool.shutdownNow();
    }
    proxy
        .journal()
        .assertCount(RequestMatcher.verb("get").resource("namespaces").status(200), requests);
    proxy.journal().assertCount(RequestMatcher.verb("watch").resource("configmaps"), watchers);
  }
}
