package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.Eventually;
import java.time.Duration;

/**
 * Warms a converge contender before it announces itself: it has its running operator (or the {@link
 * WriteFloor}) converge {@value #PODSETS} PodSets of {@value #REPLICAS} pods in a namespace of its
 * own, then deletes them and waits until their pods are collected. The converge figures then
 * measure warm code, JIT compilation and class loading done, as the floor's must (a cold JVM's
 * compilation took more than half the contender's CPU of a 1000-PodSet run); the scale area keeps
 * its contenders cold (it measures their CPU from the start).
 *
 * <p>Nothing of it remains when the driver starts watching: the driver's watch starts after the
 * announcement, the PodSets are gone by then, and no warm-up Event has been written for 2 s.
 */
final class ContenderWarmUp {

  static final int PODSETS = 300;
  static final int REPLICAS = 3;
  static final String NAMESPACE = "converge-contender-warm-up";

  private static final int THREADS = 8;
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final Duration QUIET = Duration.ofSeconds(2);

  private ContenderWarmUp() {}

  /**
   * Waits until the warm-up's Events are written: a recorder writes them in the background (it
   * batches records for a second), and they must not count as the run's API calls.
   */
  private static void awaitEventsWritten(KubernetesClient client) {
    long[] last = {-1, System.nanoTime()};
    Eventually.within(TIMEOUT)
        .polling(Duration.ofMillis(250))
        .until(
            "no warm-up Event written for " + QUIET,
            () -> {
              long count = client.v1().events().inNamespace(NAMESPACE).list().getItems().size();
              long now = System.nanoTime();
              if (count != last[0]) {
                last[0] = count;
                last[1] = now;
              }
              return now - last[1] >= QUIET.toNanos();
            });
  }

  /** Runs the warm-up through {@code client}; see the class documentation. */
  static void run(KubernetesClient client) throws Exception {
    long start = System.nanoTime();
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    Parallel.forEachIndex(
        PODSETS,
        THREADS,
        i ->
            client
                .resources(PodSet.class)
                .inNamespace(NAMESPACE)
                .resource(PodSet.of(NAMESPACE, "warm-up-" + i, PodSetSpec.ofReplicas(REPLICAS)))
                .create());
    Eventually.within(TIMEOUT)
        .polling(Duration.ofMillis(200))
        .until(
            "the " + PODSETS + " warm-up PodSets ready",
            () ->
                client.resources(PodSet.class).inNamespace(NAMESPACE).list().getItems().stream()
                        .filter(p -> p.getStatus() != null)
                        .filter(p -> p.getStatus().readyReplicas() == REPLICAS)
                        .count()
                    == PODSETS);
    client.resources(PodSet.class).inNamespace(NAMESPACE).delete();
    Eventually.within(TIMEOUT)
        .polling(Duration.ofMillis(200))
        .until(
            "the warm-up PodSets and their pods gone",
            () ->
                client.resources(PodSet.class).inNamespace(NAMESPACE).list().getItems().isEmpty()
                    && client.pods().inNamespace(NAMESPACE).list().getItems().isEmpty());
    awaitEventsWritten(client);
    System.err.printf(
        "warmed up: converged %d PodSets in %.1f s%n", PODSETS, (System.nanoTime() - start) / 1e9);
  }
}
