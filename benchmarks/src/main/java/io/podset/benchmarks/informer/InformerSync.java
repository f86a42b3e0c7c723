package io.podset.benchmarks.informer;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.okhttp.OkHttpClientFactory;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.podset.benchmarks.Args;
import io.podset.benchmarks.Heap;
import io.podset.benchmarks.report.ResultLine;
import io.podset.operator.PodSetController;
import io.podset.operator.PodSetReconciler;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * One initial sync per JVM: time from starting the informer to synced, retained heap per cached pod
 * after a full GC, and the peak heap during the sync.
 *
 * <p>Usage: {@code InformerSync <contender> <server url> <pods> <label> [<warm-up rounds at most>
 * <measured rounds>]}, contender one of {@code ours} (our informer, fabric8's Vert.x backend
 * underneath), {@code ours-operator} (ours as the PodSet operator's pod informer: its pod
 * projection and indices), {@code fabric8-vertx}, {@code fabric8-okhttp}, {@code fabric8-jdk}.
 * Prints figures {@code informer.sync_time.<label>} (ms), {@code informer.sync_cpu.<label>} (ms of
 * CPU used by the whole JVM during the sync, JIT and GC included: less sensitive than wall time to
 * other load on a shared machine), {@code informer.retained_per_object.<label>} (B/object) and
 * {@code informer.peak_heap.<label>} (MB). {@code ours-operator} prints {@code
 * informer.operator_cache_per_pod.<label>} (B/object, as contender {@code ours}), which each
 * fabric8 contender prints too, with its default cache: the operator's pod cache against fabric8's;
 * and, without peers (for the scale benchmark), {@code informer.operator_sync_time}, {@code
 * operator_sync_cpu}, {@code operator_peak_heap} and {@code operator_api_calls} (the requests the
 * client sent from start to synced: list pages and the watch, counted by a fabric8 interceptor).
 * Retained heap is what the whole JVM keeps after the sync minus what it kept before, so the
 * client's own buffers count too; the baseline is taken after one pod was decoded (and projected),
 * so what the JVM keeps once per type does not count per pod. Peak heap is the sum of the heap
 * pools' peaks. Neither client has a client-side rate limit in this configuration.
 *
 * <p>With the round counts, the same JVM then measures the steady state, what the code costs once
 * warm: rounds of a full sync by a new informer on the same client (a new factory for ours; the
 * previous round's informer closed and a full GC before each, untimed), warm-up rounds by {@link
 * WarmRounds}' rule, then the measured ones; it prints {@code informer.warm_sync_rate.<label>}
 * (pods per second of round time, the median of the measured rounds) and a {@code client_warm}
 * condition that holds if the warm-up rounds settled. A new informer is what every contender can be
 * asked alike (fabric8 has no public relist), and it is what a relist costs: a full list into a new
 * cache and a new watch. Not for {@code ours-operator}, whose figures have no peers here.
 */
public final class InformerSync {

  private static final List<String> CONTENDERS =
      List.of("ours", "ours-operator", "fabric8-vertx", "fabric8-okhttp", "fabric8-jdk");

  /** The figure of heap per pod in the PodSet operator's cache (its pod projection). */
  static final String OPERATOR_CACHE = "informer.operator_cache_per_pod.";

  /** The prefix of the operator pod informer's sync time and CPU figures. */
  static final String OPERATOR_SYNC = "informer.operator_sync_";

  /** The steady-state figure: pods per second of a new informer's full sync in a warm JVM. */
  static final String WARM_SYNC_RATE = "informer.warm_sync_rate.";

  /** A started informer, synced: how many objects it caches, and how to stop it. */
  private record Synced(AutoCloseable informer, IntSupplier size) {}

  private InformerSync() {}

  /** Runs one sync and prints its figures; then, with round counts, the warm rounds. */
  public static void main(String[] args) throws Exception {
    if (args.length != 4 && args.length != 6) {
      throw new IllegalArgumentException(
          "usage: InformerSync <"
              + String.join("|", CONTENDERS)
              + "> <url> <pods> <label> [<warm-up rounds at most> <measured rounds>]");
    }
    String contender = args[0];
    String url = args[1];
    String label = args[3];
    if (!CONTENDERS.contains(contender)) {
      throw new IllegalArgumentException(
          "contender must be one of " + CONTENDERS + ": '" + contender + "'");
    }
    int expected =
        Args.positive("pods (run.sh: an informer_sizes, SCALE_PODS or scale_pods entry)", args[2]);
    int maxWarmUp = 0;
    int measured = 0;
    if (args.length == 6) {
      if (contender.equals("ours-operator")) {
        throw new IllegalArgumentException(
            "ours-operator has no warm rounds (its figures have no peers): leave out the round"
                + " counts");
      }
      maxWarmUp = Args.positive("warm-up rounds at most (run.sh: informer_warm_max)", args[4]);
      measured = Args.positive("measured rounds (run.sh: informer_warm_rounds)", args[5]);
    }
    HttpClient.Factory backend =
        switch (contender) {
          case "fabric8-okhttp" -> new OkHttpClientFactory();
          case "fabric8-jdk" -> new JdkHttpClientFactory();
          default -> new VertxHttpClientFactory();
        };
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url)
            .withRequestTimeout((int) TimeUnit.MINUTES.toMillis(5))
            .withMaxConcurrentRequests(1_000)
            .withMaxConcurrentRequestsPerHost(1_000)
            .build();
    // Every request the client sends (list pages, the watch), counted as fabric8 sends them.
    LongAdder requests = new LongAdder();
    Interceptor counter =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            requests.increment();
          }
        };
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(backend)
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", counter))
            .build()) {
      warmUp(client, contender);
      long baseline = Heap.usedAfterGc();
      resetPeaks();
      long startCpu = processCpuNanos();
      long startRequests = requests.sum();
      long start = System.nanoTime();
      Synced synced = startSynced(client, contender);
      double syncMillis = (System.nanoTime() - start) / 1e6;
      double cpuMillis = (processCpuNanos() - startCpu) / 1e6;
      long calls = requests.sum() - startRequests;
      long peak = peakHeap();
      requireCached(synced, contender, expected);
      long retained = Heap.usedAfterGc() - baseline;
      // Keep the informer and its cache reachable until the heap has been measured.
      int stillCached = synced.size().getAsInt();
      synced.informer().close();
      double perPod = (double) retained / stillCached;
      if (contender.equals("ours-operator")) {
        // Against the peers' default caches (their retained_per_object); the operator's own
        // figures (the scale benchmark's) have no peers.
        print(OPERATOR_CACHE + label, "ours", perPod, "B/object");
        print(OPERATOR_SYNC + "time." + label, "ours", syncMillis, "ms");
        print(OPERATOR_SYNC + "cpu." + label, "ours", cpuMillis, "ms");
        print("informer.operator_peak_heap." + label, "ours", peak / (1024.0 * 1024.0), "MB");
        print("informer.operator_api_calls." + label, "ours", calls, "calls");
        return;
      }
      if (!contender.equals("ours")) {
        print(OPERATOR_CACHE + label, contender, perPod, "B/object");
      }
      print("informer.sync_time." + label, contender, syncMillis, "ms");
      print("informer.sync_cpu." + label, contender, cpuMillis, "ms");
      print("informer.retained_per_object." + label, contender, perPod, "B/object");
      print("informer.peak_heap." + label, contender, peak / (1024.0 * 1024.0), "MB");
      if (measured > 0) {
        warmRounds(client, contender, expected, label, maxWarmUp, measured);
      }
    }
  }

  /**
   * A new informer of the contender's kind on {@code client}, started and synced: ours (the
   * operator's projection and indices for {@code ours-operator}) in a new factory, or fabric8's.
   */
  private static Synced startSynced(KubernetesClient client, String contender) throws Exception {
    if (contender.startsWith("ours")) {
      SharedInformerFactory factory = SharedInformerFactory.create(client);
      SharedInformer<Pod> pods;
      if (contender.equals("ours-operator")) {
        // The pod informer as the PodSet operator has it: its projection and its indices.
        pods =
            factory.informerFor(
                Pod.class,
                InformerOptions.defaults().withTransform(PodSetController.podTransform()));
        pods.addIndexers(PodSetReconciler.podIndexers());
      } else {
        pods = factory.informerFor(Pod.class);
      }
      factory.startAll().get(10, TimeUnit.MINUTES);
      return new Synced(factory, () -> pods.indexer().size());
    }
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().runnableInformer(0);
    pods.start().toCompletableFuture().get(10, TimeUnit.MINUTES);
    return new Synced(pods::close, () -> pods.getStore().list().size());
  }

  private static void requireCached(Synced synced, String contender, int expected) {
    int cached = synced.size().getAsInt();
    if (cached != expected) {
      throw new IllegalStateException(
          contender + " synced with " + cached + " pods cached, expected " + expected);
    }
  }

  /**
   * The steady state: rounds of a full sync by a new informer until warm ({@link WarmRounds}), then
   * the measured ones; prints the median rate, the {@code client_warm} condition and the rounds.
   */
  private static void warmRounds(
      KubernetesClient client,
      String contender,
      int expected,
      String label,
      int maxWarmUp,
      int measured)
      throws Exception {
    WarmRounds.Outcome outcome =
        WarmRounds.run(
            () -> {
              // The previous round's cache is garbage: each round starts from a collected heap
              // and pays for its own collections only.
              System.gc();
              long start = System.nanoTime();
              Synced synced = startSynced(client, contender);
              double millis = (System.nanoTime() - start) / 1e6;
              requireCached(synced, contender, expected);
              synced.informer().close();
              return millis;
            },
            maxWarmUp,
            measured);
    String figure = WARM_SYNC_RATE + label;
    print(figure, contender, outcome.medianRate(expected), "objects/s");
    System.out.println(outcome.condition(figure).format());
    System.err.println(contender + ", warm rounds of " + expected + " pods: " + outcome.describe());
  }

  /**
   * Decodes one pod (and projects it, for the operator's informer) before the baseline, so that
   * what a JVM keeps once per type (Jackson's deserializers for the pod model, the projection's
   * accessors: about 4 MB, 400 B per pod at 10k) is not counted as retained per cached pod.
   */
  private static void warmUp(KubernetesClient client, String contender) {
    List<Pod> one =
        client
            .pods()
            .inAnyNamespace()
            .list(new ListOptionsBuilder().withLimit(1L).build())
            .getItems();
    if (contender.equals("ours-operator")) {
      one.forEach(PodSetController.podTransform()::apply);
    }
  }

  private static void print(String figure, String contender, double value, String unit) {
    System.out.println(new ResultLine(figure, contender, value, unit).format());
  }

  /** CPU time of the whole JVM (every thread: client, JIT compilers, GC) so far. */
  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    throw new IllegalStateException("this JVM does not report its process CPU time");
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
