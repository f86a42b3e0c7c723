package io.podset.benchmarks.apiserver;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.podset.benchmarks.report.ResultLine;
import io.podset.benchmarks.server.Http;
import io.podset.benchmarks.server.RawHttp;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * GET and PUT requests per second ({@code apiserver.get}, {@code apiserver.put}; 4 client threads,
 * one ConfigMap and one keep-alive {@link RawHttp} connection per thread: the JDK HTTP client costs
 * its single client CPU more per request than our server spends, so with it the figure measured the
 * client) and watch events per second delivered to 100 watchers while 300 ConfigMaps are created:
 * {@code apiserver.watch_events} with 100 bare WebSocket watches on one Vert.x event loop that only
 * count the event messages (the server's delivery rate), and {@code apiserver.watch_events_fabric8}
 * with 100 fabric8 watchers, which decode every event into a ConfigMap and hand it to a per-watch
 * executor (mostly the client's own rate: both servers end up within a few percent of each other
 * there).
 *
 * <p>Usage: {@code ApiServerLoad <contender> <url> <seconds per round> <rounds>}; prints one {@link
 * ResultLine} per figure and round, after one unmeasured warm-up round. Every loop is bounded in
 * time and count, against 127.0.0.1 only.
 */
public final class ApiServerLoad {

  private static final int THREADS = 4;
  private static final int WATCHERS = 100;
  private static final int WATCH_WRITES = 300;

  private ApiServerLoad() {}

  /** Runs the rounds. */
  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "usage: ApiServerLoad <contender> <url> <seconds per round> <rounds>");
    }
    String contender = args[0];
    URI url = URI.create(args[1]);
    long nanos = TimeUnit.SECONDS.toNanos(Integer.parseInt(args[2]));
    int rounds = Integer.parseInt(args[3]);
    Http http = new Http(url);
    for (int t = 0; t < THREADS; t++) {
      http.send(
          "POST", "/api/v1/namespaces/default/configmaps", configMap("default", "load-" + t, 0));
    }
    String getPath = "/api/v1/namespaces/default/configmaps/load-";
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      // All request rounds first, on the same small store for every server: fabric8's CRUD
      // dispatcher scans every stored object on each request, so objects left by a watch round
      // would slow its later request rounds.
      for (int round = 0; round <= rounds; round++) {
        double gets = rate(pool, nanos, url, (raw, t, i) -> raw.send("GET", getPath + t, null));
        double puts =
            rate(
                pool,
                nanos,
                url,
                (raw, t, i) ->
                    raw.send(
                        "PUT",
                        getPath + t,
                        configMap("default", "load-" + t, i).getBytes(StandardCharsets.UTF_8)));
        if (round > 0) {
          print("apiserver.get", contender, gets, "req/s");
          print("apiserver.put", contender, puts, "req/s");
        }
      }
      for (int round = 0; round <= rounds; round++) {
        double rawEvents = rawWatchEventsPerSecond(url, http, "raw-watch-" + round);
        double events = watchEventsPerSecond(url, http, "watch-" + round);
        if (round > 0) {
          print("apiserver.watch_events", contender, rawEvents, "events/s");
          print("apiserver.watch_events_fabric8", contender, events, "events/s");
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void print(String figure, String contender, double value, String unit) {
    System.out.println(new ResultLine(figure, contender, value, unit).format());
  }

  private static String configMap(String namespace, String name, long value) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\""
        + namespace
        + "\"},\"data\":{\"value\":\""
        + value
        + "\"}}";
  }

  /** One request of client thread {@code thread}, its {@code iteration}-th, on its connection. */
  @FunctionalInterface
  private interface Call {
    void run(RawHttp http, int thread, long iteration);
  }

  private static double rate(ExecutorService pool, long nanos, URI url, Call call)
      throws Exception {
    AtomicLong count = new AtomicLong();
    long start = System.nanoTime();
    long deadline = start + nanos;
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                try (RawHttp raw = new RawHttp(url)) {
                  for (long i = 0; System.nanoTime() < deadline; i++) {
                    call.run(raw, thread, i);
                    count.incrementAndGet();
                  }
                }
              }));
    }
    for (Future<?> future : futures) {
      future.get();
    }
    return count.get() / ((System.nanoTime() - start) / 1e9);
  }

  /**
   * 100 WebSocket watches of ConfigMaps in a fresh namespace, each counting the messages that carry
   * an ADDED event. A first create, awaited on every watch, proves them all established before the
   * clock starts; then 300 creates, one after the other on a bare keep-alive connection, timed
   * until every watch has counted all of them.
   */
  private static double rawWatchEventsPerSecond(URI url, Http http, String namespace)
      throws Exception {
    createNamespace(http, namespace);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try {
      WebSocketClient client =
          vertx.createWebSocketClient(
              new WebSocketClientOptions()
                  .setMaxConnections(WATCHERS * 2)
                  .setMaxFrameSize(1 << 20));
      AtomicReference<CountDownLatch> delivered =
          new AtomicReference<>(new CountDownLatch(WATCHERS));
      String path = "/api/v1/namespaces/" + namespace + "/configmaps?watch=true";
      List<io.vertx.core.Future<WebSocket>> sockets = new ArrayList<>();
      for (int w = 0; w < WATCHERS; w++) {
        io.vertx.core.Future<WebSocket> socket =
            client.connect(
                new WebSocketConnectOptions()
                    .setHost(url.getHost())
                    .setPort(url.getPort())
                    .setURI(path));
        sockets.add(
            socket.onSuccess(
                ws -> {
                  ws.textMessageHandler(
                      text -> {
                        if (text.contains("\"ADDED\"")) {
                          delivered.get().countDown();
                        }
                      });
                  ws.binaryMessageHandler(
                      bytes -> {
                        if (bytes.toString(StandardCharsets.UTF_8).contains("\"ADDED\"")) {
                          delivered.get().countDown();
                        }
                      });
                }));
      }
      io.vertx.core.Future.all(sockets)
          .toCompletionStage()
          .toCompletableFuture()
          .get(60, TimeUnit.SECONDS);
      String collection = "/api/v1/namespaces/" + namespace + "/configmaps";
      http.send("POST", collection, configMap(namespace, "probe", 0));
      if (!delivered.get().await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(url + ": the watches did not all see the probe");
      }
      CountDownLatch all = new CountDownLatch(WATCHERS * WATCH_WRITES);
      delivered.set(all);
      long start;
      boolean complete;
      double seconds;
      try (RawHttp raw = new RawHttp(url)) {
        raw.send("GET", collection + "/probe", null);
        start = System.nanoTime();
        for (int i = 0; i < WATCH_WRITES; i++) {
          raw.send(
              "POST",
              collection,
              configMap(namespace, "w-" + i, i).getBytes(StandardCharsets.UTF_8));
        }
        complete = all.await(120, TimeUnit.SECONDS);
        seconds = (System.nanoTime() - start) / 1e9;
      }
      long received = (long) WATCHERS * WATCH_WRITES - all.getCount();
      if (!complete) {
        System.err.printf(
            "%s: only %d of %d watch events arrived within 120 s%n",
            url, received, (long) WATCHERS * WATCH_WRITES);
      }
      return received / seconds;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static void createNamespace(Http http, String namespace) {
    http.send(
        "POST",
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
            + namespace
            + "\"}}");
  }

  private static double watchEventsPerSecond(URI url, Http http, String namespace)
      throws InterruptedException {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url.toString())
            .withNamespace(namespace)
            .withMaxConcurrentRequests(1_000)
            .withMaxConcurrentRequestsPerHost(1_000)
            .build();
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new VertxHttpClientFactory())
            .build()) {
      createNamespace(http, namespace);
      CountDownLatch delivered = new CountDownLatch(WATCHERS * WATCH_WRITES);
      List<Watch> watches = new ArrayList<>();
      for (int w = 0; w < WATCHERS; w++) {
        watches.add(
            client
                .configMaps()
                .inNamespace(namespace)
                .watch(
                    new Watcher<ConfigMap>() {
                      @Override
                      public void eventReceived(Action action, ConfigMap resource) {
                        delivered.countDown();
                      }

                      @Override
                      public void onClose(WatcherException cause) {}
                    }));
      }
      long start = System.nanoTime();
      for (int i = 0; i < WATCH_WRITES; i++) {
        http.send(
            "POST",
            "/api/v1/namespaces/" + namespace + "/configmaps",
            configMap(namespace, "w-" + i, i));
      }
      boolean complete = delivered.await(120, TimeUnit.SECONDS);
      double seconds = (System.nanoTime() - start) / 1e9;
      watches.forEach(Watch::close);
      long received = (long) WATCHERS * WATCH_WRITES - delivered.getCount();
      if (!complete) {
        System.err.printf(
            "%s: only %d of %d watch events arrived within 120 s%n",
            url, received, (long) WATCHERS * WATCH_WRITES);
      }
      return received / seconds;
    }
  }
}
