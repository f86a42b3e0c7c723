package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Warms the converge server's paths before a contender connects, so that no contender pays for the
 * server's JIT compilation of them (it took about half the server's CPU of a converge run when only
 * PodSet creation was warmed): in {@value #ROUNDS} rounds, each in its own namespace, {@value
 * #PODSETS} PodSets are created, {@value #PODS} owned pods each (the simulated kubelet makes them
 * Ready), their statuses patched in each way a contender patches them (JSON patch, merge patch,
 * server-side apply), an Event written for each, all watched across namespaces as a contender's
 * informers do, then the PodSets deleted and their pods collected.
 */
final class ConvergeWarmUp {

  private static final int ROUNDS = 2;
  private static final int PODSETS = 300;
  private static final int PODS = 3;
  private static final int THREADS = 8;
  private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(3);

  private ConvergeWarmUp() {}

  /** Runs the warm-up; returns once every warm-up pod is gone. */
  static void run(KubernetesClient driver) throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      round(driver, "converge-warm-up-" + round);
    }
  }

  private static void round(KubernetesClient driver, String namespace) throws Exception {
    driver
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    Set<String> ready = ConcurrentHashMap.newKeySet();
    CountDownLatch allReady = new CountDownLatch(1);
    CountDownLatch podSetsSeen = new CountDownLatch(PODSETS);
    try (Watch pods =
            Watches.start(
                driver.pods().inAnyNamespace(),
                "warm-up",
                (action, pod) -> {
                  if (action != Watcher.Action.DELETED
                      && namespace.equals(pod.getMetadata().getNamespace())
                      && isReady(pod)
                      && ready.add(pod.getMetadata().getName())
                      && ready.size() == PODSETS * PODS) {
                    allReady.countDown();
                  }
                });
        Watch podSets =
            Watches.start(
                driver.resources(PodSet.class).inAnyNamespace(),
                "warm-up",
                (action, podSet) -> {
                  if (action == Watcher.Action.ADDED) {
                    podSetsSeen.countDown();
                  }
                })) {
      Parallel.forEachIndex(PODSETS, THREADS, i -> podSet(driver, namespace, i));
      if (!allReady.await(ROUND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
          || !podSetsSeen.await(ROUND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "warm-up: only " + ready.size() + " of " + PODSETS * PODS + " pods became Ready");
      }
    }
    driver.resources(PodSet.class).inNamespace(namespace).delete();
    Eventually.within(ROUND_TIMEOUT)
        .polling(Duration.ofMillis(100))
        .until(
            "the warm-up pods of " + namespace + " collected",
            () -> driver.pods().inNamespace(namespace).list().getItems().isEmpty());
  }

  /** One PodSet with its pods, status patches and an Event. */
  private static void podSet(KubernetesClient driver, String namespace, int i) {
    PodSet podSet =
        driver
            .resources(PodSet.class)
            .inNamespace(namespace)
            .resource(PodSet.of(namespace, "warm-up-" + i, PodSetSpec.ofReplicas(PODS)))
            .create();
    List<String> names = new ArrayList<>();
    for (int p = 0; p < PODS; p++) {
      Pod pod = driver.pods().inNamespace(namespace).resource(pod(podSet, p)).create();
      names.add(pod.getMetadata().getName());
    }
    var resource = driver.resources(PodSet.class).inNamespace(namespace).resource(podSet);
    String status =
        "{\"replicas\":" + PODS + ",\"podNames\":[\"" + String.join("\",\"", names) + "\"]}";
    resource
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\""
                + podSet.getMetadata().getUid()
                + "\"},{\"op\":\"add\",\"path\":\"/status\",\"value\":"
                + status
                + "}]");
    resource
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":" + status + "}");
    resource
        .subresource("status")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager("converge-warm-up")
                .withForce(true)
                .build(),
            "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":\"PodSet\",\"metadata\":"
                + "{\"name\":\"warm-up-"
                + i
                + "\",\"namespace\":\""
                + namespace
                + "\"},\"status\":"
                + status
                + "}");
    driver
        .v1()
        .events()
        .inNamespace(namespace)
        .resource(WriteFloor.createdPods(podSet, names))
        .create();
  }

  private static Pod pod(PodSet owner, int p) {
    String name = owner.getMetadata().getName();
    return new PodBuilder()
        .withNewMetadata()
        .withName(name + "-" + p)
        .withNamespace(owner.getMetadata().getNamespace())
        .addToLabels("app", name)
        .addNewOwnerReference()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(name)
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("busybox")
        .withImage("busybox")
        .withCommand("sleep", "3600")
        .endContainer()
        .endSpec()
        .build();
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
