package io.podset.benchmarks.testkit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Start-up time, GET and PUT requests per second, and watch events per second delivered to 100
 * watchers, for the podset fake and fabric8's CRUD mock, measured in one run with the same client
 * code (JDK HTTP client for requests; fabric8 client watches, i.e. WebSocket, for watchers).
 *
 * <p>Run: {@code ./mvnw -Pbenchmarks -pl benchmarks -am package -DskipTests} then {@code java -cp
 * ... io.podset.benchmarks.testkit.FakeApiServerBenchmark [seconds] [threads]
 * [PODSET_FAKE|FABRIC8_CRUD_MOCK...]} (one kind per JVM makes the cold start-up figures
 * comparable). Every loop is bounded in time and count and only talks to 127.0.0.1.
 */
public final class FakeApiServerBenchmark {

  private static final int WATCHERS = 100;
  private static final int WATCH_WRITES = 300;

  private FakeApiServerBenchmark() {}

  /** Runs the benchmark and prints one line per server. */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    System.out.printf(
        "cores %d, load average %.1f, %d client threads, %d s per figure%n",
        Runtime.getRuntime().availableProcessors(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        threads,
        seconds);
    System.out.printf(
        "%-18s %12s %12s %10s %10s %14s%n",
        "server", "cold start", "warm start", "GET/s", "PUT/s", "watch ev/s");
    List<ServerUnderTest.Kind> kinds = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      kinds.add(ServerUnderTest.Kind.valueOf(args[i]));
    }
    if (kinds.isEmpty()) {
      kinds.addAll(List.of(ServerUnderTest.Kind.values()));
    }
    for (ServerUnderTest.Kind kind : kinds) {
      long cold = startNanos(kind);
      long[] warm = new long[10];
      for (int i = 0; i < warm.length; i++) {
        warm[i] = startNanos(kind);
      }
      Arrays.sort(warm);
      double getRate;
      double putRate;
      double watchRate;
      try (ServerUnderTest server = kind.start()) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int t = 0; t < threads; t++) {
          send(
              http,
              "POST",
              server.url(),
              "/api/v1/namespaces/default/configmaps",
              configMap("bench-" + t, 0));
        }
        getRate =
            rate(
                threads,
                seconds,
                (t, i) ->
                    send(
                        http,
                        "GET",
                        server.url(),
                        "/api/v1/namespaces/default/configmaps/bench-" + t,
                        null));
        putRate =
            rate(
                threads,
                seconds,
                (t, i) ->
                    send(
                        http,
                        "PUT",
                        server.url(),
                        "/api/v1/namespaces/default/configmaps/bench-" + t,
                        configMap("bench-" + t, i)));
        watchRate = watchEventsPerSecond(server, http);
      }
      System.out.printf(
          Locale.ROOT,
          "%-18s %9.1f ms %9.1f ms %10.0f %10.0f %14.0f%n",
          kind,
          cold / 1e6,
          warm[warm.length / 2] / 1e6,
          getRate,
          putRate,
          watchRate);
    }
  }

  private static long startNanos(ServerUnderTest.Kind kind) {
    long start = System.nanoTime();
    ServerUnderTest server = kind.start();
    long elapsed = System.nanoTime() - start;
    server.close();
    return elapsed;
  }

  private static String configMap(String name, long value) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\"default\"},\"data\":{\"value\":\""
        + value
        + "\"}}";
  }

  private static void send(HttpClient http, String method, URI base, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() >= 300) {
        throw new IllegalStateException(
            method + " " + path + " -> " + response.statusCode() + " " + response.body());
      }
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
  }

  /** One request of thread {@code t}, iteration {@code i}. */
  @FunctionalInterface
  private interface Call {
    void run(int thread, long iteration);
  }

  private static double rate(int threads, int seconds, Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong count = new AtomicLong();
    // Warm-up, not counted.
    runFor(pool, threads, Duration.ofSeconds(3), call, new AtomicLong());
    long start = System.nanoTime();
    runFor(pool, threads, Duration.ofSeconds(seconds), call, count);
    double elapsed = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    return count.get() / elapsed;
  }

  private static void runFor(
      ExecutorService pool, int threads, Duration duration, Call call, AtomicLong count)
      throws Exception {
    long deadline = System.nanoTime() + duration.toNanos();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                long i = 0;
                while (System.nanoTime() < deadline) {
                  call.run(thread, i++);
                  count.incrementAndGet();
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
  }

  private static double watchEventsPerSecond(ServerUnderTest server, HttpClient http)
      throws Exception {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(server.url().toString())
            .withNamespace("watch-bench")
            .withTrustCerts(true)
            .build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      send(
          http,
          "POST",
          server.url(),
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"watch-bench\"}}");
      CountDownLatch delivered = new CountDownLatch(WATCHERS * WATCH_WRITES);
      List<Watch> watches = new ArrayList<>();
      for (int w = 0; w < WATCHERS; w++) {
        watches.add(
            client
                .configMaps()
                .inNamespace("watch-bench")
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
        send(
            http,
            "POST",
            server.url(),
            "/api/v1/namespaces/watch-bench/configmaps",
            configMap("w-" + i, i).replace("\"default\"", "\"watch-bench\""));
      }
      boolean complete = delivered.await(120, TimeUnit.SECONDS);
      double elapsed = (System.nanoTime() - start) / 1e9;
      watches.forEach(Watch::close);
      long received = (long) WATCHERS * WATCH_WRITES - delivered.getCount();
      if (!complete) {
        System.out.printf(
            "  (%s: only %d of %d events arrived within 120 s)%n",
            server.url(), received, (long) WATCHERS * WATCH_WRITES);
      }
      return received / elapsed;
    }
  }
}
