package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.podset.api.v1alpha1.PodSet;
import io.podset.benchmarks.Heap;
import io.podset.benchmarks.report.ResultLine;
import io.podset.operator.PodSetController;
import io.podset.operator.PodSetOptions;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.recorder.EventRecorders;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 3, contender side: runs one PodSet operator against the server until standard input
 * closes (or the JVM is stopped), after announcing itself ({@link Control}).
 *
 * <p>Usage: {@code ConvergeContender <ours|seed-loop|josdk|floor> <server url> [<figure label>]}.
 * With a label (the scale benchmark's), it prints at the end of input, as {@link ResultLine}s:
 * {@code operator.converge_cpu.<label>} (ms of CPU the whole JVM used from its announcement to the
 * end of input: JIT and GC included) and {@code operator.converge_heap.<label>} (B: heap after full
 * GCs while the operator still runs, minus the heap after full GCs before it was created). Without
 * a label (the converge area's runs), the contender is first warmed up ({@link ContenderWarmUp})
 * unless the system property {@value #COLD} is true; with one it starts cold.
 *
 * <ul>
 *   <li>{@code ours}: the operator's real wiring, {@link PodSetController} with default options and
 *       a real event recorder, on our runtime.
 *   <li>{@code seed-loop}: {@link SeedLoopReconciler} on our runtime, one worker (as the seed's
 *       operator-sdk default).
 *   <li>{@code josdk}: {@link JosdkPodSetReconciler} on java-operator-sdk with its default
 *       configuration (reconciliation threads and all).
 *   <li>{@code floor}: no controller, {@link WriteFloor}: the operator's writes for each PodSet
 *       from a plain client with its write concurrency, the fake server's capacity for them.
 * </ul>
 */
public final class ConvergeContender {

  /** With this system property true, the converge area's contender starts cold too. */
  static final String COLD = "converge.cold";

  private static final List<String> CONTENDERS = List.of("ours", "seed-loop", "josdk", "floor");

  private ConvergeContender() {}

  /** Runs the contender; see the class documentation. */
  public static void main(String[] args) throws Exception {
    if (args.length < 2 || args.length > 3 || !CONTENDERS.contains(args[0])) {
      throw new IllegalArgumentException(
          "usage: ConvergeContender <"
              + String.join("|", CONTENDERS)
              + "> <server url> [<figure label>]");
    }
    String contender = args[0];
    URI url = URI.create(args[1]);
    String label = args.length == 3 ? args[2] : null;
    try (KubernetesClient client = Control.client(url, null)) {
      long baseline = label == null ? 0 : Heap.usedAfterGc();
      AutoCloseable running =
          switch (contender) {
            case "ours" -> ours(client);
            case "seed-loop" -> seedLoop(client);
            case "floor" -> WriteFloor.start(client);
            default -> josdk(client);
          };
      if (label == null && !Boolean.getBoolean(COLD)) {
        ContenderWarmUp.run(client);
      }
      Control.announce(client, contender);
      System.err.println(contender + " running");
      CpuUse announced = CpuUse.now();
      ConvergeServer.awaitEndOfInput(System.in);
      CpuUse end = CpuUse.now();
      System.err.println(contender + " from its announcement to the end: " + end.since(announced));
      if (label != null) {
        // Measured while the operator still runs: its caches, queues and informers are live.
        long retained = Heap.usedAfterGc() - baseline;
        print("operator.converge_cpu." + label, contender, end.cpuMillisSince(announced), "ms");
        print("operator.converge_heap." + label, contender, retained, "B");
      }
      running.close();
    }
    // java-operator-sdk leaves non-daemon threads behind after stop().
    System.exit(0);
  }

  private static void print(String figure, String contender, double value, String unit) {
    System.out.println(new ResultLine(figure, contender, value, unit).format());
    System.out.flush();
  }

  private static AutoCloseable ours(KubernetesClient client) {
    SharedInformerFactory informers = SharedInformerFactory.create(client);
    Controller controller =
        PodSetController.create(
            client,
            informers,
            EventRecorders.create(client, "podset-operator", "bench"),
            PodSetOptions.defaults());
    controller.start();
    return () -> {
      controller.close();
      informers.close();
    };
  }

  private static AutoCloseable seedLoop(KubernetesClient client) {
    SharedInformerFactory informers = SharedInformerFactory.create(client);
    SharedInformer<PodSet> podSets = informers.informerFor(PodSet.class);
    SharedInformer<Pod> pods = informers.informerFor(Pod.class);
    pods.addIndexers(Map.of(Indexers.CONTROLLER_UID, Indexers.byControllerUid()));
    Controller controller =
        Controllers.builder(informers)
            .named("seed-loop")
            .forResource(PodSet.class)
            .owns(Pod.class)
            .reconciler(new SeedLoopReconciler(client, podSets.indexer(), pods.indexer()))
            .build();
    controller.start();
    return () -> {
      controller.close();
      informers.close();
    };
  }

  private static AutoCloseable josdk(KubernetesClient client) {
    Operator operator = new Operator(overrider -> overrider.withKubernetesClient(client));
    operator.register(new JosdkPodSetReconciler());
    operator.start();
    return operator::stop;
  }
}
