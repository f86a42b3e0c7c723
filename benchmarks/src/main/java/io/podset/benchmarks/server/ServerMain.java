package io.podset.benchmarks.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.benchmarks.Heap;
import io.podset.benchmarks.report.ResultLine;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts an API server in this JVM, optionally seeds it, prints {@code READY <url>} and serves
 * until standard input closes.
 *
 * <p>Usage: {@code ServerMain <ours|fabric8-mock> [--pods N] [--namespaces K] [--startups R]}. With
 * {@code --startups R} it first measures start-up: the first start in this fresh JVM ({@code
 * apiserver.cold_startup}) and the median of {@code R} further starts ({@code apiserver.startup}),
 * printed as {@link ResultLine}s. With {@code --pods N} it creates {@code K} namespaces (default
 * 10) and {@code N} pods spread over them (each namespace's owned by one ReplicaSet), through HTTP
 * with 8 threads, before it is ready, and prints {@code apiserver.stored_per_object.<N as 10k>}
 * (B/object: the heap after full GCs after seeding minus before, over the pods: what the server
 * keeps per stored pod, its history entry included).
 */
public final class ServerMain {

  private static final int SEED_THREADS = 8;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The figure of the server's heap per stored pod. */
  static final String STORED = "apiserver.stored_per_object.";

  private ServerMain() {}

  /** {@code 10k} for 10000 pods (as run.sh labels sizes), the number otherwise. */
  static String label(int pods) {
    return pods % 1000 == 0 ? pods / 1000 + "k" : Integer.toString(pods);
  }

  /** Runs the server until standard input closes. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException(
          "usage: ServerMain <ours|fabric8-mock> [--pods N] [--namespaces K] [--startups R]");
    }
    ServerKind kind = ServerKind.of(args[0]);
    int pods = 0;
    int namespaces = 10;
    int startups = 0;
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option without a value: " + args[i]);
      }
      int value = Integer.parseInt(args[i + 1]);
      switch (args[i]) {
        case "--pods" -> pods = value;
        case "--namespaces" -> namespaces = value;
        case "--startups" -> startups = value;
        default -> throw new IllegalArgumentException("unknown option: " + args[i]);
      }
    }
    int history = Math.max(10_000, pods + namespaces + 1_000);
    if (startups > 0) {
      measureStartup(kind, startups, history);
    }
    try (ServerKind.RunningServer server = kind.start(history)) {
      if (pods > 0) {
        long before = Heap.usedAfterGc();
        long start = System.nanoTime();
        seed(new Http(server.url()), pods, namespaces);
        System.err.printf(
            "seeded %d pods in %d namespaces in %.1f s%n",
            pods, namespaces, (System.nanoTime() - start) / 1e9);
        double perPod = (double) (Heap.usedAfterGc() - before) / pods;
        System.out.println(
            new ResultLine(STORED + label(pods), kind.contender(), perPod, "B/object").format());
      }
      System.out.println("READY " + server.url());
      System.out.flush();
      awaitEndOfInput(System.in);
    }
  }

  private static void measureStartup(ServerKind kind, int startups, int history) {
    long cold = startNanos(kind, history);
    long[] warm = new long[startups];
    for (int i = 0; i < startups; i++) {
      warm[i] = startNanos(kind, history);
    }
    Arrays.sort(warm);
    String contender = kind.contender();
    System.out.println(
        new ResultLine("apiserver.cold_startup", contender, cold / 1e6, "ms").format());
    System.out.println(
        new ResultLine("apiserver.startup", contender, warm[startups / 2] / 1e6, "ms").format());
  }

  private static long startNanos(ServerKind kind, int history) {
    long start = System.nanoTime();
    ServerKind.RunningServer server = kind.start(history);
    long elapsed = System.nanoTime() - start;
    server.close();
    return elapsed;
  }

  /**
   * Creates the namespaces, each with the ReplicaSet that owns its pods, then the pods with {@value
   * #SEED_THREADS} threads.
   */
  static void seed(Http http, int pods, int namespaces) throws Exception {
    Map<String, String> ownerUids = new HashMap<>();
    for (int n = 0; n < namespaces; n++) {
      String ns = Pods.namespace(n, namespaces);
      http.send(
          "POST",
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
      String owner =
          http.send(
              "POST",
              "/apis/apps/v1/namespaces/" + ns + "/replicasets",
              Pods.ownerJson(pods / namespaces));
      ownerUids.put(ns, JSON.readTree(owner).path("metadata").path("uid").asText());
    }
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(SEED_THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < SEED_THREADS; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < pods; i = next.getAndIncrement()) {
                    String ns = Pods.namespace(i, namespaces);
                    http.send(
                        "POST",
                        "/api/v1/namespaces/" + ns + "/pods",
                        Pods.json(i, ns, ownerUids.get(ns)));
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void awaitEndOfInput(InputStream in) throws IOException {
    byte[] buffer = new byte[256];
    while (in.read(buffer) >= 0) {
      // Only the end of input matters.
    }
  }
}
