package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.api.v1alpha1.PodSetUpdateStrategy;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.event.EventRecorder;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.testkit.FakeApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole controller (shared informers, work queue, workers, {@link PodSetReconciler}) against
 * the testkit's fake API server: what a user sees after {@code kubectl apply}.
 */
class PodSetControllerIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static FakeApiServer server;

  private String namespace;
  private KubernetesClient admin;
  private RecordingClient recording;
  private SharedInformerFactory informers;
  private Controller controller;
  private FakeKubelet kubelet;
  private final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startServer() {
    server = FakeApiServer.start();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void start() {
    namespace = "ctl-" + NAMESPACES.incrementAndGet();
    admin = server.client();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    recording = new RecordingClient(server.clientConfig());
    informers = SharedInformerFactory.create(admin);
    EventRecorder recorder =
        (regarding, type, reason, message) ->
            events.add(
                regarding.getMetadata().getName() + " " + type + " " + reason + " " + message);
    controller =
        PodSetController.create(
            recording.client(),
            informers,
            recorder,
            PodSetOptions.defaults(),
            InformerOptions.defaults().withNamespace(namespace));
    controller.start();
    kubelet = new FakeKubelet(admin, namespace);
  }

  @AfterEach
  void stop() {
    controller.close();
    informers.close();
    recording.close();
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + DEADLINE + " waiting for " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
  }

  private PodSet create(String name, PodSetSpec spec) {
    return admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, name, spec))
        .create();
  }

  private void setSpec(String name, PodSetSpec spec) {
    admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .withName(name)
        .edit(
            p -> {
              p.setSpec(spec);
              return p;
            });
  }

  private PodSet stored(String name) {
    return admin.resources(PodSet.class).inNamespace(namespace).withName(name).get();
  }

  private List<Pod> livePods(String podSet) {
    return admin
        .pods()
        .inNamespace(namespace)
        .withLabel(PodSetLabels.PODSET, podSet)
        .list()
        .getItems()
        .stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  /** The status describes the current spec: {@code replicas} pods, all on the template. */
  private boolean settled(String name, int replicas) {
    PodSet podSet = stored(name);
    PodSetStatus status = podSet.getStatus();
    return status != null
        && status.observedGeneration() == podSet.getMetadata().getGeneration()
        && status.replicas() == replicas
        && status.updatedReplicas() == replicas
        && livePods(name).size() == replicas
        && status.condition(PodSetCondition.PROGRESSING).map(c -> !c.isTrue()).orElse(false);
  }

  private long writes(String prefix) {
    return recording.writes().stream().filter(w -> w.startsWith(prefix)).count();
  }

  @Test
  void scale0to3to10to1to0_exactCreatesAndDeletes() {
    create("web", PodSetSpec.ofReplicas(0));
    await("0 pods, status written", () -> settled("web", 0));

    for (int replicas : new int[] {3, 10, 1, 0}) {
      setSpec("web", PodSetSpec.ofReplicas(replicas));
      await(replicas + " pods", () -> settled("web", replicas));
      PodSetStatus status = stored("web").getStatus();
      assertThat(status.podNames())
          .containsExactlyInAnyOrderElementsOf(
              livePods("web").stream().map(p -> p.getMetadata().getName()).toList());
    }

    // Exactly the pods needed were created and deleted: 3 + 7 up, 9 + 1 down.
    String pods = "/api/v1/namespaces/" + namespace + "/pods";
    assertThat(writes("POST " + pods)).isEqualTo(10);
    assertThat(writes("DELETE " + pods + "/")).isEqualTo(10);
    // The reconciler reads only its caches: no GET before a status write either.
    assertThat(recording.reads()).isEmpty();
  }

  @Test
  void podDeletedBehindTheBack_isReplaced() {
    create("web", PodSetSpec.ofReplicas(3));
    await("3 pods", () -> settled("web", 3));
    String victim = livePods("web").get(0).getMetadata().getName();

    admin.pods().inNamespace(namespace).withName(victim).delete();

    await(
        "a replacement",
        () ->
            settled("web", 3)
                && livePods("web").stream()
                    .noneMatch(p -> p.getMetadata().getName().equals(victim)));
  }

  @Test
  void podSetDeleted_podsLeftToTheGarbageCollector_controllerWritesNothingMore() {
    create("web", PodSetSpec.ofReplicas(2));
    await("2 pods", () -> settled("web", 2));
    recording.clear();

    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    // Another PodSet settling proves the controller has processed the deletion's events.
    create("later", PodSetSpec.ofReplicas(1));
    await("the later PodSet", () -> settled("later", 1));

    assertThat(recording.writes()).noneMatch(w -> w.contains("/podsets/web"));
    assertThat(writes("DELETE")).isZero();
    // The pods go by garbage collection (their owner reference), not by the controller.
    await("the garbage collector", () -> livePods("web").isEmpty());
    assertThat(writes("DELETE")).isZero();
  }

  @Test
  void imageChange_rolledInPlace_updatedReplicasReachesReplicas() {
    PodTemplateSpec template = PodSetDefaults.template();
    template.getSpec().getContainers().get(0).setImage("busybox:1.35");
    PodSetSpec spec =
        PodSetSpec.ofReplicas(3)
            .withTemplate(template)
            .withUpdateStrategy(PodSetUpdateStrategy.ofMaxUnavailable(1));
    create("web", spec);
    await("3 pods", () -> settled("web", 3));
    kubelet.run();
    await("3 ready", () -> stored("web").getStatus().readyReplicas() == 3);
    Map<String, String> uids =
        livePods("web").stream()
            .collect(
                Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));

    PodTemplateSpec newer = PodSetDefaults.template();
    newer.getSpec().getContainers().get(0).setImage("busybox:1.36");
    setSpec("web", spec.withTemplate(newer));
    await(
        "all pods on busybox:1.36 and available",
        () -> {
          kubelet.run();
          PodSetStatus status = stored("web").getStatus();
          return settled("web", 3) && status.availableReplicas() == 3;
        });

    assertThat(livePods("web"))
        .allSatisfy(
            p -> {
              assertThat(p.getSpec().getContainers().get(0).getImage()).isEqualTo("busybox:1.36");
              assertThat(p.getMetadata().getUid()).isEqualTo(uids.get(p.getMetadata().getName()));
            });
    assertThat(writes("POST")).isEqualTo(3);
    // Image patches are sent without reading the pod first.
    assertThat(recording.reads()).isEmpty();
  }

  @Test
  void createsForbidden_replicaFailure_retriesWithGrowingDelay_clearedOnceCreatesWork() {
    recording.refusePodCreates(
        403,
        "Forbidden",
        "pods \"web-x\" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2,"
            + " limited: pods=2");
    create("web", PodSetSpec.ofReplicas(3));

    await("9 refused attempts", () -> recording.refusedAtNanos().size() >= 9);
    await(
        "ReplicaFailure",
        () ->
            stored("web")
                .getStatus()
                .condition(PodSetCondition.REPLICA_FAILURE)
                .map(PodSetCondition::isTrue)
                .orElse(false));
    PodSetCondition failure =
        stored("web").getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow();
    assertThat(failure.reason()).isEqualTo("FailedCreate");
    assertThat(failure.message()).contains("exceeded quota").endsWith("(HTTP 403)");
    // One create per attempt (slow start stops at the first failed batch), retried at the
    // controller's per-key exponential backoff: after the i-th failure at least 5 ms * 2^i, so the
    // floor of the delay doubles each time. Our own status write does not trigger an early retry.
    List<Long> at = new ArrayList<>(recording.refusedAtNanos());
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < at.size(); i++) {
      gaps.add(at.get(i) - at.get(i - 1));
    }
    for (int i = 0; i < 8; i++) {
      assertThat(gaps.get(i))
          .as("gap after failure %d: %s", i, gaps)
          .isGreaterThanOrEqualTo(Duration.ofMillis(5L << i).toNanos());
    }
    assertThat(events).anyMatch(e -> e.startsWith("web Warning FailedCreate Error creating: pods"));

    recording.allow();
    await("3 pods once creates work", () -> settled("web", 3));
    assertThat(stored("web").getStatus().condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
  }

  @Test
  void failingPodSet_doesNotBlockOthers() {
    PodTemplateSpec broken = PodSetDefaults.template();
    broken.getSpec().setContainers(new ArrayList<>());
    create("broken", PodSetSpec.ofReplicas(2).withTemplate(broken));
    recording.refusePodCreates(500, "InternalError", "etcdserver: request timed out");
    create("flaky", PodSetSpec.ofReplicas(1));
    await(
        "flaky's failure",
        () ->
            stored("flaky").getStatus() != null
                && stored("flaky")
                    .getStatus()
                    .condition(PodSetCondition.REPLICA_FAILURE)
                    .isPresent());
    recording.allow();

    create("fine", PodSetSpec.ofReplicas(2));
    await("fine settled", () -> settled("fine", 2));
    await("flaky settled", () -> settled("flaky", 1));
    await(
        "broken reported",
        () ->
            stored("broken").getStatus() != null
                && stored("broken")
                    .getStatus()
                    .condition(PodSetCondition.REPLICA_FAILURE)
                    .map(c -> c.reason().equals("InvalidSpec"))
                    .orElse(false));
    assertThat(livePods("broken")).isEmpty();
  }
}
