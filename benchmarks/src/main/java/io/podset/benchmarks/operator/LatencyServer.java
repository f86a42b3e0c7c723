package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.benchmarks.Args;
import io.podset.benchmarks.report.Condition;
import io.podset.testkit.FakeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

/**
 * Benchmark 4, server side: the fake API server with {@value #OBJECTS} ConfigMaps in namespace
 * {@value #NAMESPACE}, and the driver. Once a contender announced itself ({@link Control}), it
 * updates the ConfigMaps round-robin at each rate in turn for {@code seconds} seconds: a JSON merge
 * patch setting the annotation {@value LatencyRecorder#ANNOTATION} to the phase and the time just
 * before sending (so the latency includes the server's handling of the write). Then it creates the
 * ConfigMap {@value #DONE}, waits for the contender to create {@value #REPORTED} in {@code default}
 * after printing its figures, and prints {@code DONE}. Serves until standard input closes.
 *
 * <p>Usage: {@code LatencyServer <rate,rate,...> <seconds>}; a phase is named after its rate
 * ({@code 100}, {@code 1k}, {@code 5k}). The achieved rates, the server's round trip and its JVM's
 * CPU per update go to standard error. Before it prints {@code READY} it warms the server alone
 * (phase {@code pre}); a phase {@code warm} (8 s at 1000/s) runs first once a contender watches,
 * and contenders leave it out of their figures; each phase starts after a 2-second pause.
 */
public final class LatencyServer {

  /** The namespace of the updated ConfigMaps. */
  static final String NAMESPACE = "latency";

  /** The ConfigMap whose creation ends the measurement. */
  static final String DONE = "bench-done";

  /** The ConfigMap (namespace {@code default}) a contender creates once it printed its figures. */
  static final String REPORTED = "bench-reported";

  /**
   * A fixed measurement window after the last phase, so updates still in flight are measured too
   * (the contender runs in another JVM: there is no condition here to wait on).
   */
  private static final Duration DRAIN = Duration.ofSeconds(1);

  /** The warm-up phase's name. */
  static final String WARM = "warm";

  /**
   * The warm-up: {@value #WARM_SECONDS} s at {@value #WARM_RATE}/s, 8000 updates, so that every
   * contender's per-event code paths are compiled by C2 (about 5000 to 15000 calls) before any
   * measured phase, rather than while it runs on the contender's only CPU.
   */
  private static final int WARM_RATE = 1000;

  private static final int WARM_SECONDS = 8;

  /**
   * The server's watch history: short, as no contender resumes a watch here. A long one (it was
   * 200k changes) keeps every written object alive through the server's young collections, which
   * then paused the server 20 to 50 ms about every second on a loaded CPU: that, not the
   * contenders, set every contender's p99.
   */
  private static final int HISTORY = 1_000;

  /**
   * The bound on the server's own update round trip (p99, ms) for a phase's figures to be valid:
   * above it the server, not the contender, sets the latency ({@code -Dlatency.maxServerP99Ms}).
   */
  static final double MAX_SERVER_P99_MS =
      Double.parseDouble(System.getProperty("latency.maxServerP99Ms", "10"));

  /** The share of the asked rate the server must sustain for a phase's figures to be valid. */
  static final double MIN_RATE_SHARE = 0.95;

  /**
   * The server's own warm-up before a contender connects: rounds of {@value #SERVER_WARM_RATE}
   * updates (at up to that rate per second, with watches of the namespace open) until the JIT has
   * settled, its compile time in a round at most {@value #JIT_SETTLED_SHARE} of the round's wall
   * time, and at least {@value #SERVER_WARM_MIN_ROUNDS} and at most {@value
   * #SERVER_WARM_MAX_ROUNDS} rounds. The server runs on one CPU, which its JIT shares: the server
   * JVM's CPU per update fell from 1130 to 190 us over 16 rounds (80k updates) while C2 compiled
   * and recompiled the write and watch paths, seconds of CPU for each of the largest methods, and
   * its JIT time per round fell below 0.2 of the wall time only in the 15th. The 1000 updates this
   * warm-up had before, and the contenders' warm phase (8000, with a contender watching), left the
   * server compiling through the measured phases.
   */
  private static final int SERVER_WARM_RATE = 5_000;

  private static final int SERVER_WARM_MIN_ROUNDS = 6;
  private static final int SERVER_WARM_MAX_ROUNDS = 16;
  private static final double JIT_SETTLED_SHARE = 0.2;

  private static final int OBJECTS = 1000;
  private static final int MAX_IN_FLIGHT = 256;

  /**
   * The driver's keep-alive connections. More requests in flight wait in the driver's queue, which
   * happens only when the server is already 64 updates behind.
   */
  private static final int CONNECTIONS = 64;

  private static final Duration PAUSE = Duration.ofSeconds(2);

  private LatencyServer() {}

  /** Runs the phases; see the class documentation. */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: LatencyServer <rate,rate,...> <seconds>");
    }
    List<Integer> rates = new ArrayList<>();
    for (String rate : args[0].split(",")) {
      rates.add(Args.positive("rate (run.sh: latency_rates)", rate));
    }
    int seconds = Args.positive("seconds (run.sh: latency_seconds)", args[1]);
    try (FakeApiServer server = FakeApiServer.builder().historyWindow(HISTORY).start();
        KubernetesClient driver = Control.client(server.url(), Control.DRIVER_AGENT);
        PatchDriver patches = new PatchDriver(server.url(), CONNECTIONS)) {
      driver
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      for (int i = 0; i < OBJECTS; i++) {
        driver.configMaps().inNamespace(NAMESPACE).resource(configMap("cm-" + i)).create();
      }
      warmServer(patches);
      System.out.println("READY " + server.url());
      System.out.flush();
      String contender = Control.awaitContender(driver, Duration.ofMinutes(10));
      System.err.println("contender " + contender + " announced itself");
      run(patches, WARM, WARM_RATE, WARM_SECONDS, LatencyRecorder.ANNOTATION);
      for (int rate : rates) {
        // A quiet gap, so a phase does not inherit the previous one's backlog.
        Thread.sleep(PAUSE.toMillis());
        String phase = rate % 1000 == 0 ? rate / 1000 + "k" : String.valueOf(rate);
        PhaseStats stats = run(patches, phase, rate, seconds, LatencyRecorder.ANNOTATION);
        stats.conditions().forEach(c -> System.out.println(c.format()));
      }
      Thread.sleep(DRAIN.toMillis());
      driver.configMaps().inNamespace(NAMESPACE).resource(configMap(DONE)).create();
      Control.awaitConfigMap(
          driver, REPORTED, Duration.ofMinutes(2), contender + " did not report");
      System.out.println("DONE");
      System.out.flush();
      ConvergeServer.awaitEndOfInput(System.in);
    }
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .endMetadata()
        .addToData("key", "value")
        .build();
  }

  /**
   * What the server did in one phase: updates asked and achieved per second, failures, and its
   * update round trip's p99.
   */
  record PhaseStats(String phase, int askedRate, double achievedRate, long failed, double p99Ms) {

    /**
     * The conditions of the phase's latency figures: the server sustained the rate without failures
     * ({@code server_rate}) and its own round trip stayed below {@link #MAX_SERVER_P99_MS} ({@code
     * server_round_trip}).
     */
    List<Condition> conditions() {
      String scope = "operator\\.latency_.*\\." + Pattern.quote(phase);
      return List.of(
          Condition.of(
              scope,
              "server_rate",
              achievedRate >= MIN_RATE_SHARE * askedRate && failed == 0,
              String.format(
                  Locale.ROOT,
                  "server sustained %.0f of %d updates/s asked (at least %.0f%% needed), %d failed",
                  achievedRate,
                  askedRate,
                  MIN_RATE_SHARE * 100,
                  failed)),
          Condition.of(
              scope,
              "server_round_trip",
              p99Ms <= MAX_SERVER_P99_MS,
              String.format(
                  Locale.ROOT,
                  "server update round trip p99 %.2f ms (bound %.1f ms)",
                  p99Ms,
                  MAX_SERVER_P99_MS)));
    }
  }

  /**
   * Warms the server's patch path and its watch fan-out (watches of the namespace, read and
   * dropped, closed before any contender watches).
   */
  private static void warmServer(PatchDriver patches) throws Exception {
    try (AutoCloseable watches =
        patches.watch("/api/v1/namespaces/" + NAMESPACE + "/configmaps?watch=true")) {
      for (int round = 1; ; round++) {
        CpuUse before = CpuUse.now();
        long start = System.nanoTime();
        run(patches, "pre", SERVER_WARM_RATE, 1, "bench.podset.io/warm");
        double wallMillis = (System.nanoTime() - start) / 1e6;
        long jitMillis = CpuUse.now().jitMillis() - before.jitMillis();
        if (warmEnough(round, jitMillis, wallMillis)) {
          System.err.printf(
              Locale.ROOT,
              "server warm after %d updates (JIT %d ms in the last round of %.0f ms)%n",
              round * SERVER_WARM_RATE,
              jitMillis,
              wallMillis);
          return;
        }
      }
    }
  }

  /**
   * Whether the server's warm-up may end after {@code round}, whose JIT compile time was {@code
   * jitMillis} in {@code wallMillis}.
   */
  static boolean warmEnough(int round, long jitMillis, double wallMillis) {
    return round >= SERVER_WARM_MAX_ROUNDS
        || (round >= SERVER_WARM_MIN_ROUNDS && jitMillis <= JIT_SETTLED_SHARE * wallMillis);
  }

  /** Sends {@code rate * seconds} paced updates, at most {@value #MAX_IN_FLIGHT} in flight. */
  private static PhaseStats run(
      PatchDriver patches, String phase, int rate, int seconds, String annotation)
      throws InterruptedException {
    int total = rate * seconds;
    Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    AtomicLong failures = new AtomicLong();
    // Each update's round trip (stamp to response): the part of the latency before any contender.
    long[] roundTrips = new long[total];
    CpuUse cpuBefore = CpuUse.now();
    long start = System.nanoTime();
    for (int i = 0; i < total; i++) {
      long due = start + (long) (i * 1e9 / rate);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      inFlight.acquire();
      int index = i;
      long sentNanos = System.nanoTime();
      String patch =
          "{\"metadata\":{\"annotations\":{\""
              + annotation
              + "\":\""
              + LatencyRecorder.stamp(phase, Instant.now())
              + "\"}}}";
      patches.patch(
          "/api/v1/namespaces/" + NAMESPACE + "/configmaps/cm-" + (i % OBJECTS),
          patch,
          (status, error) -> {
            roundTrips[index] = (System.nanoTime() - sentNanos) / 1_000;
            inFlight.release();
            if (error != null || status != 200) {
              failures.incrementAndGet();
            }
          });
    }
    inFlight.acquire(MAX_IN_FLIGHT);
    double elapsed = (System.nanoTime() - start) / 1e9;
    CpuUse cpuAfter = CpuUse.now();
    System.err.printf(
        Locale.ROOT,
        "phase %s: %d updates in %.2f s (%.0f/s asked %d/s), %d failed%n",
        phase,
        total,
        elapsed,
        total / elapsed,
        rate,
        failures.get());
    // The semaphore's acquire after the releases orders the writes to roundTrips before this read.
    long[] sorted = roundTrips.clone();
    Arrays.sort(sorted);
    System.err.printf(
        Locale.ROOT,
        "phase %s: update round trip p50 %.2f ms, p99 %.2f ms, p999 %.2f ms, max %.2f ms%n",
        phase,
        LatencyRecorder.percentile(sorted, 0.50),
        LatencyRecorder.percentile(sorted, 0.99),
        LatencyRecorder.percentile(sorted, 0.999),
        sorted[total - 1] / 1000.0);
    // What the server (and this driver) cost: a JIT still compiling or a costlier write path shows
    // here, apart from the load of other work on the CPU.
    System.err.printf(
        Locale.ROOT,
        "phase %s: server JVM %s, %.0f us CPU per update%n",
        phase,
        cpuAfter.since(cpuBefore),
        cpuAfter.cpuMillisSince(cpuBefore) * 1000 / total);
    return new PhaseStats(
        phase, rate, total / elapsed, failures.get(), LatencyRecorder.percentile(sorted, 0.99));
  }
}
