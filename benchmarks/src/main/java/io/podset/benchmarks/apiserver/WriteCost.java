package io.podset.benchmarks.apiserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.benchmarks.Args;
import io.podset.benchmarks.Heap;
import io.podset.benchmarks.report.ResultLine;
import io.podset.benchmarks.server.Http;
import io.podset.benchmarks.server.Pods;
import io.podset.benchmarks.server.RawHttp;
import io.podset.testkit.FakeApiServer;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one write costs the testkit's fake API server, measured in this JVM on the server's own
 * threads ({@link ServerThreads}): CPU and bytes allocated per write, with one watch of the pods
 * open and read (so every write is also rendered as a watch event), for four writes of pods of
 * {@link Pods} (5.5 KB each): {@code create} (POST), {@code merge_patch} (an annotation, merge
 * patch), {@code status_patch} (the Ready condition's lastProbeTime on {@code /status}, a strategic
 * merge patch as the kubelet sends) and {@code apply} (server-side apply of an annotation, forced).
 * And the heap the server keeps per stored pod with that watch open ({@code
 * apiserver.watched_heap_per_object}: heap after full GCs after the creates minus before, per pod).
 *
 * <p>Each write runs in rounds from 4 client threads on keep-alive connections; warm-up rounds
 * until the JIT compiled for less than a tenth of a round's wall time (at least 3, at most {@value
 * #MAX_WARM_ROUNDS}), then the measured rounds; the figures are the medians of the measured rounds.
 * Per-thread counters leave the JIT and GC out and hold on a loaded machine far better than wall
 * time; each round's line on stderr shows its compile time. Uses only {@code
 * FakeApiServer.builder().start()}, so the same source compiles against older testkits.
 *
 * <p>Usage: {@code WriteCost <writes per round> <measured rounds>}; prints {@code RESULT} lines.
 */
public final class WriteCost {

  private static final int CLIENTS = 4;
  private static final int MIN_WARM_ROUNDS = 3;
  private static final int MAX_WARM_ROUNDS = 30;
  private static final String NAMESPACE = "write-cost";
  private static final String PODS = "/api/v1/namespaces/" + NAMESPACE + "/pods";
  private static final String MERGE = "application/merge-patch+json";
  private static final String STRATEGIC = "application/strategic-merge-patch+json";
  private static final String APPLY = "application/apply-patch+yaml";

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private WriteCost() {}

  /** One HTTP write: method, path, content type, body. */
  private record Request(String method, String path, String contentType, String body) {}

  /** The {@code seq}-th write of a kind, over {@code stored} pods. */
  @FunctionalInterface
  private interface Write {
    Request request(int seq, int stored);
  }

  /** Runs every write and prints the figures. */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: WriteCost <writes per round> <measured rounds>");
    }
    int perRound = Args.positive("writes per round (run.sh: write_per_round)", args[0]);
    int rounds = Args.positive("measured rounds (run.sh: write_rounds)", args[1]);
    try (FakeApiServer server = FakeApiServer.builder().start();
        PodWatch watch = new PodWatch(server.url(), PODS + "?watch=true")) {
      URI url = server.url();
      String ownerUid = seedOwner(new Http(url));
      watch.start();
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      try {
        AtomicInteger created = new AtomicInteger();
        long before = Heap.usedAfterGc();
        measure(
            "create",
            clients,
            url,
            perRound,
            rounds,
            (seq, stored) -> {
              created.incrementAndGet();
              return new Request(
                  "POST", PODS, "application/json", Pods.json(seq, NAMESPACE, ownerUid));
            },
            0);
        int stored = created.get();
        double perPod = (double) (Heap.usedAfterGc() - before) / stored;
        System.err.printf("%d pods stored%n", stored);
        print("apiserver.watched_heap_per_object", perPod, "B/object");
        measure("merge_patch", clients, url, perRound, rounds, WriteCost::annotate, stored);
        measure("status_patch", clients, url, perRound, rounds, WriteCost::probe, stored);
        measure("apply", clients, url, perRound, rounds, WriteCost::apply, stored);
        System.err.printf("watch read %d bytes%n", watch.bytes());
      } finally {
        clients.shutdownNow();
      }
    }
  }

  private static String seedOwner(Http http) throws Exception {
    http.send(
        "POST",
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
            + NAMESPACE
            + "\"}}");
    String owner =
        http.send(
            "POST", "/apis/apps/v1/namespaces/" + NAMESPACE + "/replicasets", Pods.ownerJson(1));
    return new ObjectMapper().readTree(owner).path("metadata").path("uid").asText();
  }

  /** The name {@link Pods#json} gives pod number {@code index}. */
  private static String name(int index) {
    return Pods.OWNER + "-" + Integer.toString(index, 36);
  }

  private static String pod(int seq, int stored) {
    return PODS + "/" + name(seq % stored);
  }

  private static Request annotate(int seq, int stored) {
    return new Request(
        "PATCH",
        pod(seq, stored),
        MERGE,
        "{\"metadata\":{\"annotations\":{\"bench.podset.io/seq\":\"" + seq + "\"}}}");
  }

  private static Request probe(int seq, int stored) {
    String time = Instant.ofEpochSecond(1_800_000_000L + seq).toString();
    return new Request(
        "PATCH",
        pod(seq, stored) + "/status",
        STRATEGIC,
        "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastProbeTime\":\""
            + time
            + "\"}]}}");
  }

  private static Request apply(int seq, int stored) {
    String name = name(seq % stored);
    return new Request(
        "PATCH",
        pod(seq, stored) + "?fieldManager=write-cost&force=true",
        APPLY,
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\""
            + NAMESPACE
            + "\",\"annotations\":{\"bench.podset.io/applied\":\""
            + seq
            + "\"}}}");
  }

  /**
   * Warm-up rounds, then {@code rounds} measured ones, of {@code perRound} writes each; prints the
   * medians. Sequence numbers continue across rounds from {@code 0}.
   */
  private static void measure(
      String name,
      ExecutorService clients,
      URI url,
      int perRound,
      int rounds,
      Write write,
      int stored)
      throws Exception {
    int seq = 0;
    for (int warm = 1; warm <= MAX_WARM_ROUNDS; warm++) {
      double[] round = round(name, "warm " + warm, clients, url, seq, perRound, write, stored);
      seq += perRound;
      if (warm >= MIN_WARM_ROUNDS && round[2] <= 0.1 * round[3]) {
        break;
      }
    }
    double[] cpu = new double[rounds];
    double[] allocated = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      double[] round = round(name, "round " + (r + 1), clients, url, seq, perRound, write, stored);
      seq += perRound;
      cpu[r] = round[0];
      allocated[r] = round[1];
    }
    print("apiserver.write_cpu." + name, median(cpu), "us/write");
    print("apiserver.write_alloc." + name, median(allocated), "B/write");
  }

  /** One round: {µs of server CPU per write, bytes allocated per write, JIT ms, wall ms}. */
  private static double[] round(
      String name,
      String label,
      ExecutorService clients,
      URI url,
      int first,
      int count,
      Write write,
      int stored)
      throws Exception {
    AtomicInteger next = new AtomicInteger(first);
    int end = first + count;
    long jit = JIT.getTotalCompilationTime();
    long start = System.nanoTime();
    ServerThreads before = ServerThreads.read();
    List<Future<?>> futures = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      futures.add(
          clients.submit(
              () -> {
                try (RawHttp raw = new RawHttp(url)) {
                  for (int seq = next.getAndIncrement(); seq < end; seq = next.getAndIncrement()) {
                    Request r = write.request(seq, stored);
                    raw.send(
                        r.method(),
                        r.path(),
                        r.contentType(),
                        r.body().getBytes(StandardCharsets.UTF_8));
                  }
                }
                return null;
              }));
    }
    for (Future<?> future : futures) {
      future.get(10, TimeUnit.MINUTES);
    }
    ServerThreads after = ServerThreads.read();
    double wallMs = (System.nanoTime() - start) / 1e6;
    double[] round = {
      after.cpuNanosSince(before) / 1e3 / count,
      (double) after.allocatedSince(before) / count,
      JIT.getTotalCompilationTime() - jit,
      wallMs
    };
    System.err.printf(
        Locale.ROOT,
        "%s %s: %d writes, server %.1f us CPU and %.0f B allocated per write, JIT %.0f ms,"
            + " wall %.0f ms%n",
        name,
        label,
        count,
        round[0],
        round[1],
        round[2],
        round[3]);
    return round;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static void print(String figure, double value, String unit) {
    System.out.println(new ResultLine(figure, "ours", value, unit).format());
  }
}
