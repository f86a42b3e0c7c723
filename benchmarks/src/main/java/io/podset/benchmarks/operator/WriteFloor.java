package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.podset.api.v1alpha1.PodSet;
import io.podset.operator.PodSetOptions;
import io.podset.operator.PodSetPlan;
import io.podset.operator.PodSetPlanner;
import io.podset.operator.PodSetStatuses;
import io.podset.runtime.status.StatusWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The converge benchmark's floor: the writes the PodSet operator makes for each PodSet, from a
 * plain client with the operator's write concurrency and no controller (no cache, no work queue, no
 * reads, no waiting for pods to become Ready). What it measures is the fake server's capacity for
 * that mix of writes: no contender doing the same writes at the same concurrency converges faster.
 *
 * <p>Per PodSet, as the operator writes them: its pods created ({@code spec.replicas}, the pod the
 * operator's planner makes), the status that shows them Ready replaced through {@code /status} by
 * the JSON patch {@link StatusWriter} sends (computed by {@link PodSetStatuses} from the created
 * pods marked Ready), then one Normal Event. The PodSets are learnt from one plain watch; each is
 * written by one of {@link #CONCURRENCY} threads, one request at a time, so at most that many
 * writes are in flight: the operator's {@link PodSetOptions#writeParallelism()}.
 *
 * <p>Like every converge contender, it is warmed up before the run ({@link ContenderWarmUp}): the
 * floor measures the server, not this JVM's first calls (cold, its first writes came 3.5 s after
 * the first PodSet).
 */
final class WriteFloor implements AutoCloseable {

  /** Writes in flight at most: the operator's default pod write parallelism. */
  static final int CONCURRENCY = PodSetOptions.defaults().writeParallelism();

  private final KubernetesClient client;
  private final StatusWriter statuses;
  private final PodSetPlanner planner = PodSetPlanner.create();
  private final ExecutorService writers = Executors.newFixedThreadPool(CONCURRENCY);
  private final AtomicLong failures = new AtomicLong();
  private final Watch watch;

  private WriteFloor(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
    this.statuses = StatusWriter.of(client);
    this.watch =
        Watches.start(
            client.resources(PodSet.class).inAnyNamespace(),
            "floor",
            (action, podSet) -> {
              if (action == Watcher.Action.ADDED) {
                writers.execute(() -> write(podSet));
              }
            });
  }

  /** Starts watching PodSets and writing for each new one. */
  static WriteFloor start(KubernetesClient client) {
    return new WriteFloor(client);
  }

  private void write(PodSet podSet) {
    try {
      String namespace = podSet.getMetadata().getNamespace();
      PodSetPlan plan = planner.plan(podSet, List.of(), true);
      List<Pod> ready = new ArrayList<>();
      for (int i = 0; i < plan.create(); i++) {
        Pod created = client.pods().inNamespace(namespace).resource(plan.podToCreate()).create();
        ready.add(markedReady(created));
      }
      Instant now = Instant.now();
      PodSetPlan settled = planner.plan(podSet, ready, true);
      statuses.replace(podSet, PodSetStatuses.compute(podSet, settled, null, now));
      client
          .v1()
          .events()
          .inNamespace(namespace)
          .resource(
              createdPods(podSet, ready.stream().map(p -> p.getMetadata().getName()).toList()))
          .create();
    } catch (RuntimeException e) {
      // Reported and counted: the driver then times out, naming the PodSets not ready.
      failures.incrementAndGet();
      System.err.println("floor: writing for " + podSet.getMetadata().getName() + " failed: " + e);
    }
  }

  /** The Normal Event the operator writes for pods it created, as the warm-ups write it too. */
  static Event createdPods(PodSet podSet, List<String> podNames) {
    String namespace = podSet.getMetadata().getNamespace();
    String now = Instant.now().toString();
    return new EventBuilder()
        .withNewMetadata()
        .withGenerateName(podSet.getMetadata().getName() + ".")
        .withNamespace(namespace)
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(podSet.getApiVersion())
        .withKind(podSet.getKind())
        .withNamespace(namespace)
        .withName(podSet.getMetadata().getName())
        .withUid(podSet.getMetadata().getUid())
        .endInvolvedObject()
        .withType("Normal")
        .withReason("SuccessfulCreate")
        .withMessage("Created pods: " + String.join(", ", podNames))
        .withNewSource("podset-bench", null)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .build();
  }

  /** The pod as the simulated kubelet makes it: Running and Ready. */
  private static Pod markedReady(Pod pod) {
    String now = Instant.now().toString();
    return new PodBuilder(pod)
        .editOrNewStatus()
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .withLastTransitionTime(now)
        .endCondition()
        .endStatus()
        .build();
  }

  /** Stops watching and writing; says how many PodSets failed. */
  @Override
  public void close() throws InterruptedException {
    watch.close();
    writers.shutdownNow();
    writers.awaitTermination(10, TimeUnit.SECONDS);
    System.err.println("floor: " + failures.get() + " PodSets failed");
  }
}
