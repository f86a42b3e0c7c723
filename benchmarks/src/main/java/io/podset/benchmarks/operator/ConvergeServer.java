package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.benchmarks.Args;
import io.podset.benchmarks.report.ResultLine;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Benchmark 3, server side: the fake API server with the PodSet CRD and a simulated kubelet that
 * makes pods Ready at once, and the driver. Once a contender announced itself ({@link Control}), it
 * creates {@code podsets} PodSets of {@code replicas} replicas over {@code namespaces} namespaces
 * (8 threads) and waits until every one shows {@code status.readyReplicas == replicas}.
 *
 * <p>Prints {@link ResultLine}s for the contender, each figure suffixed with {@code .<podsets>}:
 * {@code operator.converge_time} (ms, first create to the last PodSet ready, as seen by the
 * driver's watch), {@code operator.converge_api_calls} (requests the contender made from the first
 * create until, after convergence, it made none for 2 s (at most 60 s), from the server's request
 * journal: background writes such as Events count), {@code operator.converge_api_calls_no_events}
 * (the same without core/v1 Events) and {@code operator.converge_conflicts} (requests answered 409)
 * and {@code operator.converge_write_rate} (writes/s: the contender's creates, updates, patches and
 * deletes over the time from its first write to its last; for the {@link WriteFloor} contender, the
 * server's capacity for the operator's mix of writes), then {@code DONE}; a per-verb breakdown goes
 * to standard error. Serves until standard input closes.
 *
 * <p>With {@code latency ms} above 0, every resource request other than a watch (the driver's, the
 * contender's) is served that much later ({@link Fault#latency}, from the warm-up on), as a real
 * API server's round trip; the figures are then suffixed {@code .<podsets>@<latency>ms}.
 *
 * <p>Usage: {@code ConvergeServer <podsets> <replicas> <namespaces> [<latency ms>]}.
 */
public final class ConvergeServer {

  private static final String CRD = "META-INF/fabric8/" + PodSet.CRD_NAME + "-v1.yml";
  private static final int CREATE_THREADS = 8;

  /**
   * The watch history the server keeps, in changes: a few seconds of a run. No contender resumes a
   * watch, and a long history (it was 200k) kept every written object alive through the server's
   * young collections: 1.8 to 2 s of GC pauses in a 1000-PodSet run.
   */
  private static final int HISTORY = 5_000;

  private static final Duration SETTLE = Duration.ofSeconds(2);
  private static final Duration QUIET_LIMIT = Duration.ofSeconds(60);
  private static final Duration TIMEOUT = Duration.ofMinutes(15);

  private ConvergeServer() {}

  /** Runs one convergence; see the class documentation. */
  public static void main(String[] args) throws Exception {
    if (args.length != 3 && args.length != 4) {
      throw new IllegalArgumentException(
          "usage: ConvergeServer <podsets> <replicas> <namespaces> [<latency ms>]");
    }
    int podSets = Args.positive("podsets (run.sh: CONVERGE_PODSETS, SCALE_PODSETS)", args[0]);
    int replicas = Args.positive("replicas", args[1]);
    int namespaces = Args.positive("namespaces", args[2]);
    int latencyMillis =
        args.length == 4
            ? Args.notNegative("latency ms (a CONVERGE_LATENCIES_MS entry)", args[3])
            : 0;
    try (FakeApiServer server =
            FakeApiServer.builder()
                .historyWindow(HISTORY)
                .kubelet(KubeletOptions.immediate())
                .start();
        KubernetesClient driver = Control.client(server.url(), Control.DRIVER_AGENT)) {
      try (InputStream crd = ConvergeServer.class.getClassLoader().getResourceAsStream(CRD)) {
        if (crd == null) {
          throw new IllegalStateException("the PodSet CRD is missing from the classpath: " + CRD);
        }
        server.installCrds(crd);
      }
      for (int n = 0; n < namespaces; n++) {
        driver
            .namespaces()
            .resource(
                new NamespaceBuilder().withNewMetadata().withName(ns(n)).endMetadata().build())
            .create();
      }
      if (latencyMillis > 0) {
        // Before the warm-up: requests with latency take the server's blocking path, which the
        // warm-up must compile too.
        server.faults().add(requestLatency(latencyMillis));
      }
      warmUp(driver);
      System.out.println("READY " + server.url());
      System.out.flush();
      String contender = Control.awaitContender(driver, Duration.ofMinutes(10));
      System.err.println("contender " + contender + " announced itself");

      Set<String> ready = ConcurrentHashMap.newKeySet();
      // Completed with System.nanoTime() when the last PodSet became ready.
      CompletableFuture<Long> convergedAt = new CompletableFuture<>();
      Watch watch =
          Watches.start(
              driver.resources(PodSet.class).inAnyNamespace(),
              "driver",
              (action, podSet) -> {
                var status = podSet.getStatus();
                if (action != Watcher.Action.DELETED
                    && status != null
                    && status.readyReplicas() == replicas
                    && ready.add(podSet.getMetadata().getNamespace() + "/" + name(podSet))
                    && ready.size() == podSets) {
                  convergedAt.complete(System.nanoTime());
                }
              });
      RequestJournal.Mark mark = server.journal().mark();
      CpuUse before = CpuUse.now();
      long start = System.nanoTime();
      Instant firstCreate = Instant.now();
      create(driver, podSets, replicas, namespaces);
      System.err.printf(
          "created %d PodSets in %.1f s%n", podSets, (System.nanoTime() - start) / 1e9);
      long convergedNanos;
      try {
        convergedNanos = convergedAt.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        watch.close();
        throw new IllegalStateException(
            contender
                + ": only "
                + ready.size()
                + " of "
                + podSets
                + " PodSets ready after "
                + TIMEOUT);
      }
      double millis = (convergedNanos - start) / 1e6;
      System.err.println(
          "server from the first create to convergence: " + CpuUse.now().since(before));
      awaitQuiet(server.journal(), mark);
      watch.close();
      List<RequestRecord> calls = contenderCalls(server.journal(), mark);
      long conflicts = calls.stream().filter(r -> r.status() == 409).count();
      int pods = driver.pods().inAnyNamespace().list().getItems().size();
      System.err.printf(
          "%s: converged in %.0f ms, %d API calls, %d conflicts, %d pods at the end%n",
          contender, millis, calls.size(), conflicts, pods);
      breakdown(calls, firstCreate).forEach((k, v) -> System.err.println("  " + k + ": " + v));
      long events = calls.stream().filter(r -> "events".equals(r.resource())).count();
      String size = label(podSets, latencyMillis);
      print("operator.converge_time" + size, contender, millis, "ms");
      print("operator.converge_api_calls" + size, contender, calls.size(), "calls");
      print(
          "operator.converge_api_calls_no_events" + size,
          contender,
          calls.size() - events,
          "calls");
      print("operator.converge_conflicts" + size, contender, conflicts, "conflicts");
      print("operator.converge_write_rate" + size, contender, writeRate(calls), "writes/s");
      System.out.println("DONE");
      System.out.flush();
      awaitEndOfInput(System.in);
    }
  }

  /**
   * Warms the server's and the driver's paths before a contender connects ({@link ConvergeWarmUp}).
   */
  private static void warmUp(KubernetesClient driver) throws Exception {
    long start = System.nanoTime();
    ConvergeWarmUp.run(driver);
    System.err.printf("warmed up in %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  private static void print(String figure, String contender, double value, String unit) {
    System.out.println(new ResultLine(figure, contender, value, unit).format());
  }

  /**
   * The figure suffix: {@code .<podsets>}, or {@code .<podsets>@<latency>ms} with injected latency.
   */
  static String label(int podSets, int latencyMillis) {
    return "." + podSets + (latencyMillis > 0 ? "@" + latencyMillis + "ms" : "");
  }

  /** {@code millis} of latency on every resource request but watches. */
  static FaultRule requestLatency(int millis) {
    return FaultRule.match()
        .resourceRequestsOnly()
        .verbs("get", "list", "create", "update", "patch", "delete", "deletecollection")
        .inject(Fault.latency(Duration.ofMillis(millis)));
  }

  /**
   * Writes per second: the writes among {@code calls} over the time from the first of them to the
   * last (the rate the writes came in, whenever the contender started writing); 0 with fewer than
   * two.
   */
  static double writeRate(List<RequestRecord> calls) {
    List<Instant> writes =
        calls.stream().filter(RequestRecord::isWrite).map(RequestRecord::time).sorted().toList();
    if (writes.size() < 2) {
      return 0;
    }
    double seconds = Duration.between(writes.get(0), writes.get(writes.size() - 1)).toNanos() / 1e9;
    return seconds <= 0 ? 0 : (writes.size() - 1) / seconds;
  }

  static String ns(int n) {
    return "converge-" + n;
  }

  private static String name(PodSet podSet) {
    return podSet.getMetadata().getName();
  }

  private static void create(KubernetesClient driver, int podSets, int replicas, int namespaces)
      throws Exception {
    Parallel.forEachIndex(
        podSets,
        CREATE_THREADS,
        i -> {
          String namespace = ns(i % namespaces);
          driver
              .resources(PodSet.class)
              .inNamespace(namespace)
              .resource(PodSet.of(namespace, "ps-" + i, PodSetSpec.ofReplicas(replicas)))
              .create();
        });
  }

  /**
   * The requests after {@code mark} not made by the driver.
   *
   * @throws IllegalStateException if the journal already dropped some of them
   */
  static List<RequestRecord> contenderCalls(RequestJournal journal, RequestJournal.Mark mark) {
    List<RequestRecord> all = journal.records();
    if (!all.isEmpty() && all.get(0).sequence() > mark.sequence() + 1) {
      throw new IllegalStateException(
          "the request journal dropped records after the mark: first kept #"
              + all.get(0).sequence()
              + ", mark #"
              + mark.sequence());
    }
    return all.stream()
        .filter(r -> r.sequence() > mark.sequence())
        .filter(r -> !Control.DRIVER_AGENT.equals(r.userAgent()))
        .toList();
  }

  /**
   * Waits until the contender made no request for {@link #SETTLE} (its background writes, such as
   * Events, are part of converging too), or {@link #QUIET_LIMIT} passed.
   */
  private static void awaitQuiet(RequestJournal journal, RequestJournal.Mark mark) {
    try {
      Eventually.within(QUIET_LIMIT)
          .polling(Duration.ofMillis(50))
          .until(
              "the contender quiet for " + SETTLE,
              () -> {
                List<RequestRecord> calls = contenderCalls(journal, mark);
                return !calls.isEmpty()
                    && Duration.between(calls.get(calls.size() - 1).time(), Instant.now())
                            .compareTo(SETTLE)
                        >= 0;
              });
    } catch (AssertionError stillWriting) {
      // Reported, not fatal: the calls counted so far are the figure.
      System.err.println("the contender was still writing " + QUIET_LIMIT + " after convergence");
    }
  }

  /**
   * Counts by {@code verb resource[/subresource] status}, with the first and last arrival in ms
   * after {@code start}.
   */
  static Map<String, String> breakdown(List<RequestRecord> calls, Instant start) {
    Map<String, long[]> counts = new TreeMap<>();
    for (RequestRecord r : calls) {
      String key =
          r.verb()
              + " "
              + (r.resource() == null ? r.path() : r.resource())
              + (r.subresource() == null ? "" : "/" + r.subresource())
              + " "
              + r.status();
      long at = Duration.between(start, r.time()).toMillis();
      long[] c = counts.computeIfAbsent(key, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
      c[0]++;
      c[1] = Math.min(c[1], at);
      c[2] = Math.max(c[2], at);
    }
    Map<String, String> out = new TreeMap<>();
    counts.forEach((k, c) -> out.put(k, c[0] + " (from " + c[1] + " ms to " + c[2] + " ms)"));
    return out;
  }

  static void awaitEndOfInput(InputStream in) throws IOException {
    byte[] buffer = new byte[256];
    while (in.read(buffer) >= 0) {
      // Only the end of input matters.
    }
  }
}
