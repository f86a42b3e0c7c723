package io.podset.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.api.v1alpha1.PodSetUpdateStrategy;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.ownership.OwnerReferences;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.reconcile.TerminalReconcileException;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.time.ManualClock;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reconciler against a real HTTP API server (the testkit's fake), with caches the test syncs by
 * hand: every write goes through the fabric8 client, and a cache the test has not synced is stale
 * exactly as an informer's can be.
 */
class PodSetReconcilerIT {

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static FakeApiServer server;

  private String namespace;
  private KubernetesClient admin;
  private RecordingClient recording;
  private ManualCaches caches;
  private FakeKubelet kubelet;
  private final List<String> events = new CopyOnWriteArrayList<>();
  // Runs on the reconciling thread as each Event is recorded: between a pass's create batches.
  private volatile Consumer<String> onEvent = event -> {};
  // The clock of the reconciler of most tests: a pass takes no time on it (a slow create batch
  // confirms the PodSet before the next one), and a fault seen stays recent until it is advanced.
  private final ManualClock passClock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private PodSetReconciler reconciler;
  private Request request;

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
  void setUp() {
    namespace = "ns-" + NAMESPACES.incrementAndGet();
    admin = server.client();
    admin
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName(namespace)
                .endMetadata()
                .build())
        .create();
    recording = new RecordingClient(server.clientConfig());
    caches = new ManualCaches(admin, namespace);
    kubelet = new FakeKubelet(admin, namespace);
    EventRecorder recorder =
        (regarding, type, reason, message) -> {
          String event = type + " " + reason + " " + message;
          events.add(event);
          onEvent.accept(event);
        };
    reconciler =
        PodSetReconciler.create(
            recording.client(),
            caches.podSets,
            caches.pods,
            caches.podSetVersion,
            caches.podVersion,
            recorder,
            // Every status change written at once: most tests drive pods that never become Ready.
            PodSetOptions.defaults().withStatusDelay(Duration.ZERO).withClock(passClock));
    caches.onPodEvents(reconciler.podEventHandler());
    request = new Request(namespace, "web");
  }

  @AfterEach
  void tearDown() {
    server.faults().clear();
    reconciler.close();
    recording.close();
  }

  // ---- helpers ---------------------------------------------------------------------------

  private PodSet createPodSet(PodSetSpec spec) {
    return admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, "web", spec))
        .create();
  }

  /** A pod named {@code name} with web's label and no owner: web adopts it. */
  private void createOrphan(String name) {
    Pod orphan = new Pod();
    orphan.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    orphan.getMetadata().setName(name);
    orphan.getMetadata().setLabels(Map.of(PodSetLabels.PODSET, "web"));
    orphan.setSpec(io.podset.api.v1alpha1.PodSetDefaults.template().getSpec());
    admin.pods().inNamespace(namespace).resource(orphan).create();
  }

  private PodSet setSpec(PodSetSpec spec) {
    return admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .withName("web")
        .edit(
            p -> {
              p.setSpec(spec);
              return p;
            });
  }

  private PodSet stored() {
    return admin.resources(PodSet.class).inNamespace(namespace).withName("web").get();
  }

  private List<Pod> livePods() {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  private static Set<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
  }

  /** Sync, reconcile, until a reconcile writes nothing; returns the number of passes. */
  private int converge() {
    return convergeWith(reconciler);
  }

  /** Sync, reconcile with {@code other}, until a pass writes nothing; returns the passes. */
  private int convergeWith(PodSetReconciler other) {
    for (int pass = 1; pass <= 20; pass++) {
      caches.sync();
      recording.clear();
      other.reconcile(request);
      if (recording.writes().isEmpty()) {
        return pass;
      }
    }
    throw new AssertionError("no convergence in 20 passes; last writes " + recording.writes());
  }

  private void assertSettled(int replicas) {
    List<Pod> pods = livePods();
    assertThat(pods).hasSize(replicas);
    PodSetStatus status = stored().getStatus();
    assertThat(status.replicas()).isEqualTo(replicas);
    assertThat(status.podNames()).containsExactlyInAnyOrderElementsOf(names(pods));
    assertThat(status.updatedReplicas()).isEqualTo(replicas);
    assertThat(status.selector()).isEqualTo("app.example.com/podset=web");
    assertThat(status.observedGeneration()).isEqualTo(stored().getMetadata().getGeneration());
    assertThat(status.condition(PodSetCondition.PROGRESSING).orElseThrow().reason())
        .isEqualTo("Complete");
    assertThat(status.condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
    for (Pod pod : pods) {
      assertThat(pod.getMetadata().getName()).startsWith("web-");
      assertThat(pod.getMetadata().getLabels()).containsEntry(PodSetLabels.PODSET, "web");
      assertThat(OwnerReferences.isControlledBy(pod, stored())).isTrue();
    }
  }

  /** The stored status describes the current spec, with every pod updated and available. */
  private boolean rolledOut(int replicas) {
    PodSet podSet = stored();
    PodSetStatus status = podSet.getStatus();
    return status.observedGeneration() == podSet.getMetadata().getGeneration()
        && status.replicas() == replicas
        && status.updatedReplicas() == replicas
        && status.availableReplicas() == replicas;
  }

  // ---- scaling ---------------------------------------------------------------------------

  @Test
  void reconcile_scale0to3to10to1to0_exactPodsAndStatus() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    assertSettled(0);

    for (int replicas : new int[] {3, 10, 1, 0}) {
      setSpec(PodSetSpec.ofReplicas(replicas));
      caches.sync();
      recording.clear();
      reconciler.reconcile(request);
      // One pass writes the whole difference: no pod more, no pod less.
      assertThat(livePods()).hasSize(replicas);
      converge();
      assertSettled(replicas);
    }
    assertThat(events).anyMatch(e -> e.startsWith("Normal SuccessfulCreate Created pods: web-"));
    assertThat(events).anyMatch(e -> e.startsWith("Normal SuccessfulDelete Deleted pods: web-"));
  }

  @Test
  void reconcile_scaleUp_createsInSlowStartBatchesInOnePass() {
    createPodSet(PodSetSpec.ofReplicas(10));
    caches.sync();

    reconciler.reconcile(request);

    assertThat(recording.writes().stream().filter(w -> w.startsWith("POST"))).hasSize(10);
    assertThat(livePods()).hasSize(10);
  }

  @Test
  void reconcile_newPodSet_writesItsStatusOnceThePodsAreSeen() {
    createPodSet(PodSetSpec.ofReplicas(3));
    caches.sync();

    reconciler.reconcile(request);
    // The pass that created the pods leaves the status to the pass their events trigger.
    assertThat(recording.writes()).noneMatch(w -> w.endsWith("/status"));
    assertThat(stored().getStatus()).isNull();

    caches.sync();
    recording.clear();
    reconciler.reconcile(request);

    assertThat(recording.writes()).singleElement().matches(w -> w.endsWith("/podsets/web/status"));
    PodSetStatus status = stored().getStatus();
    assertThat(status.replicas()).isEqualTo(3);
    assertThat(status.podNames()).containsExactlyInAnyOrderElementsOf(names(livePods()));
    assertThat(status.observedGeneration()).isEqualTo(stored().getMetadata().getGeneration());
    // One record per slow-start batch (the recorder combines them into one Event).
    assertThat(events)
        .hasSize(2)
        .allMatch(e -> e.matches("Normal SuccessfulCreate Created pods: web-\\w+(, web-\\w+)*"));
  }

  @Test
  void reconcile_newPodsStarting_statusWaitsForThemToBeReady() {
    PodSetReconciler waiting = reconcilerWithStatusDelay(Duration.ofHours(1));
    createPodSet(PodSetSpec.ofReplicas(3));
    caches.sync();
    waiting.reconcile(request);
    caches.sync();
    recording.clear();

    Result starting = waiting.reconcile(request);

    assertThat(recording.writes()).isEmpty();
    // No pod Ready yet: the window lasts up to five delays.
    assertThat(starting.requeueAfter()).contains(Duration.ofHours(5));
    kubelet.run();
    caches.sync();

    waiting.reconcile(request);

    assertThat(recording.writes()).singleElement().matches(w -> w.endsWith("/podsets/web/status"));
    assertThat(stored().getStatus().readyReplicas()).isEqualTo(3);
    waiting.close();
  }

  @Test
  void reconcile_noPodReadyWithinFiveStatusDelays_writesTheStatusOfPodsNotReady() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler waiting =
        reconcilerWith(
            PodSetOptions.defaults().withClock(clock).withStatusDelay(Duration.ofSeconds(1)));
    createPodSet(PodSetSpec.ofReplicas(2));
    caches.sync();
    waiting.reconcile(request);
    caches.sync();
    recording.clear();
    assertThat(waiting.reconcile(request).requeueAfter()).contains(Duration.ofSeconds(5));
    clock.advance(Duration.ofSeconds(4));
    assertThat(waiting.reconcile(request).requeueAfter()).contains(Duration.ofSeconds(1));
    assertThat(recording.writes()).isEmpty();

    clock.advance(Duration.ofSeconds(1));
    waiting.reconcile(request);

    assertThat(recording.writes()).singleElement().matches(w -> w.endsWith("/podsets/web/status"));
    assertThat(stored().getStatus().replicas()).isEqualTo(2);
    assertThat(stored().getStatus().readyReplicas()).isZero();
    waiting.close();
  }

  @Test
  void reconcile_podsReadyOneAtATime1500msApart_atMostTwoStatusWrites_theLastExactAtOnce() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler paced = reconcilerWith(PodSetOptions.defaults().withClock(clock));
    try {
      createPodSet(PodSetSpec.ofReplicas(3));
      caches.sync();
      paced.reconcile(request);
      List<String> pods = livePods().stream().map(p -> p.getMetadata().getName()).toList();
      assertThat(pods).hasSize(3);
      Instant start = clock.instant();
      PacedPasses passes = new PacedPasses(paced, clock);

      // The pods' creation events, then each pod Ready 1.5 s after the one before.
      passes.runAt(start);
      for (int i = 0; i < pods.size(); i++) {
        passes.runUntil(start.plus(Duration.ofMillis(1500L * (i + 1))));
        String pod = pods.get(i);
        kubelet.run(p -> p.getMetadata().getName().equals(pod));
        passes.runAt(clock.instant());
      }
      Instant lastReady = clock.instant();
      passes.runUntil(start.plus(Duration.ofMinutes(1)));

      // Before: held 1 s, then one write per pod turning Ready (4 writes).
      assertThat(passes.statusWrites).hasSizeBetween(1, 2);
      assertThat(passes.statusWrites.get(passes.statusWrites.size() - 1)).isEqualTo(lastReady);
      PodSetStatus status = stored().getStatus();
      assertThat(status.replicas()).isEqualTo(3);
      assertThat(status.readyReplicas()).isEqualTo(3);
      assertThat(status.availableReplicas()).isEqualTo(3);
    } finally {
      paced.close();
    }
  }

  @Test
  void reconcile_failureWhileThePodsStart_isWrittenAtOnce() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler paced = reconcilerWith(PodSetOptions.defaults().withClock(clock));
    try {
      createPodSet(PodSetSpec.ofReplicas(3));
      caches.sync();
      paced.reconcile(request);
      caches.sync();
      recording.clear();
      assertThat(paced.reconcile(request).requeueAfter()).isPresent();
      assertThat(recording.writes()).isEmpty();

      // One of the starting pods is deleted behind its back; its replacement is refused.
      admin
          .pods()
          .inNamespace(namespace)
          .withName(livePods().get(0).getMetadata().getName())
          .delete();
      server
          .faults()
          .add(
              podCreates()
                  .inject(
                      Fault.status(
                          403,
                          "Forbidden",
                          "pods \"web-x\" is forbidden: exceeded quota: pods, requested:"
                              + " pods=1, used: pods=2, limited: pods=2")));
      caches.sync();
      clock.advance(Duration.ofMillis(100));

      assertThatThrownBy(() -> paced.reconcile(request))
          .isInstanceOf(PodSetReconcileException.class)
          .hasMessageContaining("exceeded quota");

      assertThat(recording.writes()).anyMatch(w -> w.endsWith("/podsets/web/status"));
      PodSetCondition failure =
          stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow();
      assertThat(failure.reason()).isEqualTo("FailedCreate");
      assertThat(stored().getStatus().replicas()).isEqualTo(2);
    } finally {
      paced.close();
    }
  }

  /**
   * Passes of one PodSet as the controller runs them on a manual clock: at pod events ({@link
   * #runAt}) and at the requeues the passes asked for, each after the caches caught up, recording
   * when a pass wrote the status.
   */
  private final class PacedPasses {
    private final PodSetReconciler reconciler;
    private final ManualClock clock;
    private final TreeSet<Instant> requeues = new TreeSet<>();
    final List<Instant> statusWrites = new ArrayList<>();

    PacedPasses(PodSetReconciler reconciler, ManualClock clock) {
      this.reconciler = reconciler;
      this.clock = clock;
    }

    /** Runs a pass at {@code at} (not before the clock's time). */
    void runAt(Instant at) {
      clock.advance(Duration.between(clock.instant(), at));
      caches.sync();
      recording.clear();
      reconciler.reconcile(request).requeueAfter().ifPresent(d -> requeues.add(at.plus(d)));
      if (recording.writes().stream().anyMatch(w -> w.endsWith("/podsets/web/status"))) {
        statusWrites.add(at);
      }
    }

    /** Runs the requeued passes due before {@code end}, then moves the clock to {@code end}. */
    void runUntil(Instant end) {
      while (!requeues.isEmpty() && requeues.first().isBefore(end)) {
        runAt(requeues.pollFirst());
      }
      clock.advance(Duration.between(clock.instant(), end));
    }
  }

  private PodSetReconciler reconcilerWithStatusDelay(Duration delay) {
    return reconcilerWith(PodSetOptions.defaults().withStatusDelay(delay));
  }

  /** A reconciler of the recording client and the test's caches, with {@code options}. */
  private PodSetReconciler reconcilerWith(PodSetOptions options) {
    PodSetReconciler created =
        PodSetReconciler.create(
            recording.client(),
            caches.podSets,
            caches.pods,
            caches.podSetVersion,
            caches.podVersion,
            (regarding, type, reason, message) -> {},
            options);
    caches.onPodEvents(created.podEventHandler());
    return created;
  }

  @Test
  void reconcile_podDeletedBehindTheBack_isReplaced() {
    createPodSet(PodSetSpec.ofReplicas(3));
    converge();
    Pod victim = livePods().get(0);

    admin.pods().inNamespace(namespace).withName(victim.getMetadata().getName()).delete();
    caches.sync();
    recording.clear();
    reconciler.reconcile(request);

    // A pod it did not delete: the PodSet is confirmed live (one read), then the pod replaced.
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(recording.writes().stream().filter(w -> w.startsWith("POST"))).hasSize(1);
    converge();
    assertSettled(3);
    assertThat(names(livePods())).doesNotContain(victim.getMetadata().getName());
    // Confirmed once: later passes read only the caches again.
    assertThat(recording.reads()).isEmpty();
  }

  @Test
  void reconcile_podsCollectedBeforeTheCacheShowsThePodSetDeleted_createsNothing() {
    createPodSet(PodSetSpec.ofReplicas(2));
    converge();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    // The fake's garbage collector has deleted the pods (synchronously, after the commit).
    assertThat(livePods()).isEmpty();
    // The pod informer has seen the garbage collector's deletions; the PodSet informer lags.
    caches.syncPods(pod -> true);
    recording.clear();

    reconciler.reconcile(request);
    reconciler.reconcile(request);

    assertThat(recording.writes()).isEmpty();
    assertThat(recording.reads()).containsExactly("GET " + podSetPath(), "GET " + podSetPath());
    assertThat(livePods()).isEmpty();
  }

  @Test
  void reconcile_podSetReplacedBeforeTheCacheShowsIt_createsNothingForTheOldOne() {
    PodSet old = createPodSet(PodSetSpec.ofReplicas(2));
    converge();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    assertThat(livePods()).isEmpty();
    PodSet replacement = createPodSet(PodSetSpec.ofReplicas(1));
    caches.syncPods(pod -> true);
    recording.clear();

    reconciler.reconcile(request);

    // The cache still holds the old PodSet: no pod may be created owned by its uid.
    assertThat(recording.writes()).isEmpty();
    converge();
    assertSettled(1);
    assertThat(livePods().get(0).getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(replacement.getMetadata().getUid())
        .isNotEqualTo(old.getMetadata().getUid());
  }

  @Test
  void reconcile_bothCachesBehindADeletion_podSetCacheNotFollowing_confirmsAndCreatesNothing() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    // Both caches show the scale-up, the PodSet cache the newer of the two; neither shows the
    // deletion that followed (its watch events held back, as the chaos soak's faults do).
    setSpec(PodSetSpec.ofReplicas(2));
    caches.sync();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    caches.podSetVersion.following(false);
    recording.clear();

    reconciler.reconcile(request);

    // Nothing in the caches tells the deletion; the PodSet informer's watch state does. Trusting
    // the newer PodSet cache created 2 pods for the deleted PodSet here.
    assertConfirmedGoneAndCreatedNothing();
  }

  @Test
  void reconcile_scaleUp_podCacheAheadOfAFollowingPodSetCache_createsWithoutARead() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    setSpec(PodSetSpec.ofReplicas(2));
    caches.syncPodSets();
    // Another pod's event moves the pod cache past the PodSet cache, as on any busy cluster.
    admin.pods().inNamespace(namespace).resource(TestObjects.unrelatedPod("bystander")).create();
    caches.syncPods(pod -> true);
    assertThat(Long.parseLong(caches.podVersion.lastObservedResourceVersion()))
        .isGreaterThan(Long.parseLong(caches.podSetVersion.lastObservedResourceVersion()));
    recording.clear();

    reconciler.reconcile(request);

    // The PodSet cache follows its watch: trusted, no GET (a GET for every such pass before).
    assertThat(caches.podSetVersion.followingAsked()).isPositive();
    assertThat(recording.reads()).isEmpty();
    assertThat(recording.writes().stream().filter(w -> w.startsWith("POST"))).hasSize(2);
  }

  @Test
  void
      reconcile_followingPodSetCacheBehindADeletion_aPodWatchFaultSeen_confirmsAndCreatesNothing() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    // Both caches show the scale-up and follow their watches; the deletion that came next is held
    // back for less than the silence the PodSet cache is allowed (or is younger than the
    // tolerance), so the PodSet cache's own signal trusts it.
    setSpec(PodSetSpec.ofReplicas(2));
    caches.sync();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    // The pod informer's watch broke a moment ago (it is open again): the server is in trouble.
    caches.podVersion.faulted(true);
    recording.clear();

    reconciler.reconcile(request);

    // Trusting the following PodSet cache created 2 pods for the deleted PodSet here.
    assertThat(caches.podSetVersion.followingAsked()).isPositive();
    assertConfirmedGoneAndCreatedNothing();
  }

  @Test
  void reconcile_podCacheShowsOurWritesLate_noFault_createsWithoutARead() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    setSpec(PodSetSpec.ofReplicas(2));
    caches.sync();
    // A busy, healthy server echoes our writes late on an open pod watch: load, not a fault.
    caches.podVersion.following(false);
    recording.clear();

    reconciler.reconcile(request);

    // The following PodSet cache is trusted: no GET (one for every pass for 10 s before).
    assertThat(recording.reads()).isEmpty();
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(2);
  }

  @Test
  void reconcile_podSetCacheNotFollowingAtOnePass_aLaterFollowingPassTrustsTheCaches() {
    createPodSet(PodSetSpec.ofReplicas(0));
    converge();
    setSpec(PodSetSpec.ofReplicas(1));
    caches.sync();
    caches.podSetVersion.following(false);
    recording.clear();
    reconciler.reconcile(request);
    // Not following right now: this pass confirms.
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());

    // The watch follows again (re-opened, or the late echo arrived) and no request failed.
    caches.podSetVersion.following(true);

    // Not remembered: api's creates come from the caches alone (a GET within 10 s before).
    assertAnotherPodSetCreatedFromTheCachesAlone();
  }

  @Test
  void reconcile_afterAnotherPodSetsWriteFailed_confirmsForTheFaultMemory_thenTrustsTheCaches() {
    Request db = new Request(namespace, "db");
    admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, "db", PodSetSpec.ofReplicas(1)))
        .create();
    caches.sync();
    FaultInjector.Handle refusal = server.faults().add(podCreates().inject(Fault.serverError(503)));
    assertThatThrownBy(() -> reconciler.reconcile(db))
        .isInstanceOf(PodSetReconcileException.class)
        .hasMessageContaining("503");
    refusal.remove();
    // web: scaled up in both caches, which follow and met no fault; deleted on the server since.
    createPodSet(PodSetSpec.ofReplicas(2));
    caches.sync();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    passClock.advance(PodSetReconciler.FAULT_MEMORY);
    recording.clear();

    reconciler.reconcile(request);

    // db's refused create is as old as the fault memory: web is confirmed, found gone.
    assertConfirmedGoneAndCreatedNothing();

    // Past the fault memory, no fault since: a PodSet's creates come from the caches alone.
    passClock.advance(Duration.ofMillis(1));
    assertAnotherPodSetCreatedFromTheCachesAlone();
  }

  @Test
  void reconcile_retryOfAFailedPass_confirmsAfterAnyBackoff_untilAPassSucceeds() {
    createPodSet(PodSetSpec.ofReplicas(2));
    caches.sync();
    server.faults().add(podCreates().times(1).inject(Fault.serverError(503)));
    assertThatThrownBy(() -> reconciler.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class);
    // The controller's backoff for web has grown longer than the fault memory.
    passClock.advance(PodSetReconciler.FAULT_MEMORY.plusSeconds(1));
    caches.sync();
    recording.clear();

    reconciler.reconcile(request);

    // A retry: web is confirmed first (the deletion its failure may hide), then created.
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(2);

    // That pass succeeded: web's next create pass, a scale-up, reads nothing.
    setSpec(PodSetSpec.ofReplicas(4));
    caches.sync();
    recording.clear();
    reconciler.reconcile(request);
    assertThat(recording.reads()).isEmpty();
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(2);
  }

  @Test
  void reconcile_slowCreateBatchWhileAFaultIsAbout_confirmsBeforeTheNext_stopsOnceItIsGone() {
    createPodSet(PodSetSpec.ofReplicas(7));
    caches.sync();
    // The first batch (one pod) takes longer than the tolerance, a fault is seen meanwhile (the
    // pod watch broke), and the PodSet is deleted: neither cache shows it yet.
    afterFirstCreateBatch(
        () -> {
          passClock.advance(PodSetReconciler.PODSET_CACHE_TOLERANCE.plusMillis(1));
          caches.podVersion.faulted(true);
          admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
        });

    Result result = reconciler.reconcile(request);

    // Without the confirmation the other 6 creates went out for the deleted PodSet.
    assertThat(result).isEqualTo(Result.done());
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(recording.writes())
        .containsExactly("POST /api/v1/namespaces/" + namespace + "/pods");
  }

  @Test
  void reconcile_podSetDeletedWhileThePassAdoptsAPod_faultAbout_confirmsRightBeforeItsCreates() {
    createPodSet(PodSetSpec.ofReplicas(3));
    createOrphan("handmade");
    caches.sync();
    // One pass adopts the orphan (a patch), then creates 2 pods. A fault is about, and the PodSet
    // is deleted as the patch goes out; neither cache shows it.
    caches.podVersion.faulted(true);
    AtomicBoolean deleted = new AtomicBoolean();
    recording.beforeSend(
        line -> {
          if (line.startsWith("PATCH") && deleted.compareAndSet(false, true)) {
            admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
          }
        });
    recording.clear();

    reconciler.reconcile(request);

    // Confirmed before the adoption, and again right before the creates: confirmed only at the
    // start of the pass, the PodSet was there, and the 2 creates went out for it once deleted.
    assertThat(deleted).as(recording.writes().toString()).isTrue();
    assertThat(recording.reads()).containsExactly("GET " + podSetPath(), "GET " + podSetPath());
    assertThat(recording.writes())
        .containsExactly("PATCH /api/v1/namespaces/" + namespace + "/pods/handmade");
  }

  @Test
  void reconcile_createBatchesFastOrWithoutFaults_readNothing() {
    createPodSet(PodSetSpec.ofReplicas(7));
    caches.sync();
    // Batch 1 takes just the tolerance; batch 2 a second, with no fault about (a busy server).
    AtomicInteger batches = new AtomicInteger();
    onEvent =
        event -> {
          if (event.startsWith("Normal SuccessfulCreate")) {
            passClock.advance(
                batches.incrementAndGet() == 1
                    ? PodSetReconciler.PODSET_CACHE_TOLERANCE
                    : Duration.ofSeconds(1));
          }
        };

    reconciler.reconcile(request);

    assertThat(batches).hasValue(3);
    assertThat(recording.reads()).isEmpty();
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(7);
  }

  @Test
  void reconcile_podSetDeletedBetweenCreateBatches_cacheShowsIt_sendsNoMoreCreates() {
    createPodSet(PodSetSpec.ofReplicas(7));
    caches.sync();
    // After the first batch (one pod) the PodSet is deleted and the PodSet cache shows it.
    afterFirstCreateBatch(
        () -> {
          admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
          caches.syncPodSets();
        });

    Result result = reconciler.reconcile(request);

    assertThat(result).isEqualTo(Result.done());
    // One create (batch 1 of 1, 2, 4), no status write for the PodSet that is gone.
    assertThat(recording.writes())
        .containsExactly("POST /api/v1/namespaces/" + namespace + "/pods");
    assertThat(recording.reads()).isEmpty();
    assertThat(livePods()).isEmpty();
  }

  @Test
  void reconcile_podsCollectedBetweenCreateBatches_confirmsThePodSetGone_sendsNoMoreCreates() {
    createPodSet(PodSetSpec.ofReplicas(7));
    caches.sync();
    // After the first batch the PodSet is deleted; the pod cache sees the garbage collector delete
    // the new pod, the PodSet cache still shows the PodSet.
    afterFirstCreateBatch(
        () -> {
          caches.syncPods(pod -> true);
          admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
          caches.syncPods(pod -> true);
        });

    Result result = reconciler.reconcile(request);

    assertThat(result).isEqualTo(Result.done());
    assertThat(recording.writes())
        .containsExactly("POST /api/v1/namespaces/" + namespace + "/pods");
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(livePods()).isEmpty();
  }

  @Test
  void reconcile_podDeletedBehindTheBackBetweenCreateBatches_confirmsThePodSetAndCreatesTheRest() {
    createPodSet(PodSetSpec.ofReplicas(7));
    caches.sync();
    // After the first batch its pod is deleted by someone else: the PodSet is still there.
    afterFirstCreateBatch(
        () -> {
          caches.syncPods(pod -> true);
          admin.pods().inNamespace(namespace).delete();
          caches.syncPods(pod -> true);
        });

    reconciler.reconcile(request);

    // One GET confirms the PodSet once for the rest of the pass; every create is sent.
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(recording.writes().stream().filter(w -> w.startsWith("POST"))).hasSize(7);
    assertThat(livePods()).hasSize(6);
  }

  /** Runs {@code action} once, when the pass records the Event of its first create batch. */
  private void afterFirstCreateBatch(Runnable action) {
    AtomicBoolean done = new AtomicBoolean();
    onEvent =
        event -> {
          if (event.startsWith("Normal SuccessfulCreate") && done.compareAndSet(false, true)) {
            action.run();
          }
        };
  }

  /** A new PodSet "api" of 2 replicas, synced: its pass creates both pods without a read. */
  private void assertAnotherPodSetCreatedFromTheCachesAlone() {
    Request api = new Request(namespace, "api");
    admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, "api", PodSetSpec.ofReplicas(2)))
        .create();
    caches.sync();
    recording.clear();

    reconciler.reconcile(api);

    assertThat(recording.reads()).isEmpty();
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(2);
  }

  /** The pass confirmed the PodSet with one GET, found it gone, and created nothing. */
  private void assertConfirmedGoneAndCreatedNothing() {
    assertThat(recording.reads()).containsExactly("GET " + podSetPath());
    assertThat(recording.writes()).isEmpty();
    assertThat(livePods()).isEmpty();
  }

  private String podSetPath() {
    return "/apis/app.example.com/v1alpha1/namespaces/" + namespace + "/podsets/web";
  }

  @Test
  void reconcile_deletedPodSet_writesNothing() {
    createPodSet(PodSetSpec.ofReplicas(2));
    converge();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    caches.sync();
    recording.clear();

    reconciler.reconcile(request);

    assertThat(recording.writes()).isEmpty();
  }

  @Test
  void reconcile_settledPodSet_secondReconcileMakesZeroWrites() {
    createPodSet(PodSetSpec.ofReplicas(3));
    converge();
    kubelet.run();
    converge();
    caches.sync();
    recording.clear();

    reconciler.reconcile(request);
    reconciler.reconcile(request);

    assertThat(recording.writes()).isEmpty();
    assertThat(stored().getStatus().readyReplicas()).isEqualTo(3);
    assertThat(stored().getStatus().condition(PodSetCondition.AVAILABLE).orElseThrow().isTrue())
        .isTrue();
  }

  // ---- stale cache -----------------------------------------------------------------------

  @Test
  void reconcile_staleCache_neverCreatesMoreThanReplicas_whereTheSeedReconcilerDoes() {
    createPodSet(PodSetSpec.ofReplicas(5));
    caches.sync();

    // Our reconciler: the pod cache never shows the creations (all watch events held back).
    for (int i = 0; i < 5; i++) {
      reconciler.reconcile(request);
      assertThat(livePods()).hasSizeLessThanOrEqualTo(5);
    }
    assertThat(livePods()).hasSize(5);

    // Two of five creations reach the cache, three are still held back: still no create.
    Set<String> firstTwo =
        livePods().stream()
            .limit(2)
            .map(p -> p.getMetadata().getName())
            .collect(Collectors.toSet());
    int heldBack = caches.syncPods(p -> firstTwo.contains(p.getMetadata().getName()));
    assertThat(heldBack).isEqualTo(3);
    recording.clear();
    reconciler.reconcile(request);
    assertThat(recording.writes()).isEmpty();
    assertThat(livePods()).hasSize(5);

    // All events delivered: settled at exactly 5.
    converge();
    assertSettled(5);

    // The seed's reconciler with the same stale cache over-creates.
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    admin.pods().inNamespace(namespace).delete();
    createPodSet(PodSetSpec.ofReplicas(5));
    ManualCaches seedCaches = new ManualCaches(admin, namespace);
    seedCaches.sync();
    SeedPodSetReconciler seed =
        new SeedPodSetReconciler(admin, seedCaches.podSets, seedCaches.pods);
    int maxPods = 0;
    for (int i = 0; i < 8; i++) {
      seed.reconcile(request);
      maxPods = Math.max(maxPods, livePods().size());
    }
    assertThat(maxPods).isEqualTo(8).isGreaterThan(5);
  }

  @Test
  void reconcile_cacheCatchingUpDuringTheReconcile_neverActsOnTheOlderSnapshot() {
    // The pod cache catches up between the reconciler's reads, as an informer may at any time:
    // the expectations must be judged before the pods are read, or an older snapshot of the pods
    // passes for settled (seen as 12 creates for 10 replicas in the controller IT under load).
    AtomicBoolean catchUpOnVersionRead = new AtomicBoolean();
    PodSetReconciler racing =
        PodSetReconciler.create(
            recording.client(),
            caches.podSets,
            caches.pods,
            caches.podSetVersion,
            new CacheVersion() {
              @Override
              public String lastObservedResourceVersion() {
                if (catchUpOnVersionRead.getAndSet(false)) {
                  caches.sync();
                }
                return caches.podVersion.lastObservedResourceVersion();
              }

              @Override
              public CompletableFuture<Void> awaitObserved(String resourceVersion) {
                return caches.podVersion.awaitObserved(resourceVersion);
              }
            },
            (regarding, type, reason, message) -> {},
            PodSetOptions.defaults());
    caches.onPodEvents(racing.podEventHandler());
    try {
      createPodSet(PodSetSpec.ofReplicas(3));
      caches.sync();
      racing.reconcile(request);
      assertThat(livePods()).hasSize(3);

      catchUpOnVersionRead.set(true);
      racing.reconcile(request);
      assertThat(livePods()).hasSize(3);
    } finally {
      racing.close();
    }
  }

  @Test
  void reconcile_lateEventsOfEarlierCreates_neverMeetTheExpectationsOfLaterCreates() {
    // A slow pod event handler (seen in the chaos soak): the pod cache shows two creates, and its
    // version meets their expectations, before the handler has passed their events on. A scale-up
    // creates a third pod; then the late events of the first two arrive. They must not count for
    // the third, or the next pass, its cache not showing the third pod yet, creates it again.
    createPodSet(PodSetSpec.ofReplicas(2));
    caches.sync();
    caches.holdPodHandler();
    reconciler.reconcile(request);
    caches.syncPods(pod -> true);
    assertThat(livePods()).hasSize(2);

    setSpec(PodSetSpec.ofReplicas(3));
    caches.syncPodSets();
    reconciler.reconcile(request);
    assertThat(livePods()).hasSize(3);

    caches.releasePodHandler();
    recording.clear();
    reconciler.reconcile(request);
    assertThat(recording.writes()).noneMatch(w -> w.contains("POST") && w.contains("/pods"));
    assertThat(livePods()).hasSize(3);

    converge();
    assertSettled(3);
  }

  @Test
  void reconcile_staleCacheOnScaleDown_neverDeletesTwice() {
    createPodSet(PodSetSpec.ofReplicas(4));
    converge();
    setSpec(PodSetSpec.ofReplicas(1));
    caches.syncPodSets();

    reconciler.reconcile(request);
    assertThat(livePods()).hasSize(1);
    recording.clear();
    // The pod cache still shows four pods; the deletions are expected, so nothing more happens
    // (a late recheck guards against lost events).
    assertThat(reconciler.reconcile(request))
        .isEqualTo(
            io.podset.runtime.reconcile.Result.requeueAfter(PodSetReconciler.UNSETTLED_RECHECK));
    reconciler.reconcile(request);
    assertThat(recording.writes()).isEmpty();
    assertThat(livePods()).hasSize(1);
  }

  // ---- adoption and release ----------------------------------------------------------------

  @Test
  void reconcile_matchingOrphan_isAdoptedAndCounted() {
    createPodSet(PodSetSpec.ofReplicas(2));
    createOrphan("handmade");

    caches.sync();
    reconciler.reconcile(request);

    // Adopted and counted: one pod created, not two.
    Pod adopted = admin.pods().inNamespace(namespace).withName("handmade").get();
    assertThat(OwnerReferences.isControlledBy(adopted, stored())).isTrue();
    assertThat(livePods()).hasSize(2);

    // Then replaced: it was not made from the current template.
    converge();
    assertSettled(2);
    assertThat(names(livePods())).doesNotContain("handmade");
  }

  @Test
  void reconcile_ownedPodRelabelled_isReleasedAndReplaced() {
    createPodSet(PodSetSpec.ofReplicas(2));
    converge();
    String name = livePods().get(0).getMetadata().getName();
    admin
        .pods()
        .inNamespace(namespace)
        .withName(name)
        .edit(
            p -> {
              p.getMetadata().getLabels().put(PodSetLabels.PODSET, "debugging");
              return p;
            });

    converge();

    Pod released = admin.pods().inNamespace(namespace).withName(name).get();
    assertThat(OwnerReferences.getControllerOf(released)).isEmpty();
    assertThat(
            livePods().stream()
                .filter(p -> "web".equals(p.getMetadata().getLabels().get(PodSetLabels.PODSET))))
        .hasSize(2);
  }

  // ---- updates ---------------------------------------------------------------------------

  private static PodSetSpec imageSpec(int replicas, String image, int maxUnavailable) {
    PodTemplateSpec template = io.podset.api.v1alpha1.PodSetDefaults.template();
    template.getSpec().getContainers().get(0).setImage(image);
    return PodSetSpec.ofReplicas(replicas)
        .withTemplate(template)
        .withUpdateStrategy(PodSetUpdateStrategy.ofMaxUnavailable(maxUnavailable));
  }

  @Test
  void reconcile_imageChange_patchedInPlaceRespectingMaxUnavailable() {
    createPodSet(imageSpec(4, "busybox:1.35", 1));
    converge();
    kubelet.run();
    converge();
    Map<String, String> uids =
        livePods().stream()
            .collect(
                Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));

    setSpec(imageSpec(4, "busybox:1.36", 1));
    int rounds = 0;
    while (!rolledOut(4)) {
      assertThat(++rounds).isLessThan(30);
      caches.sync();
      reconciler.reconcile(request);
      // Never more than maxUnavailable pods off the new image while their kubelet restarts them.
      long unavailable = livePods().stream().filter(p -> !Pods.isAvailable(p)).count();
      assertThat(unavailable).isLessThanOrEqualTo(1);
      kubelet.run();
      caches.sync();
      reconciler.reconcile(request);
    }

    List<Pod> pods = livePods();
    assertThat(pods).hasSize(4);
    assertThat(pods)
        .allSatisfy(
            p -> {
              assertThat(p.getSpec().getContainers().get(0).getImage()).isEqualTo("busybox:1.36");
              // Same pod, patched in place.
              assertThat(p.getMetadata().getUid()).isEqualTo(uids.get(p.getMetadata().getName()));
            });
    assertThat(stored().getStatus().updatedReplicas()).isEqualTo(4);
    assertThat(events.stream().filter(e -> e.startsWith("Normal SuccessfulUpdate"))).hasSize(4);
  }

  @Test
  void reconcile_podSetCacheBehindOurStatusWrite_writesTheStatusOnce() {
    createPodSet(PodSetSpec.ofReplicas(2));
    converge();
    kubelet.run();
    caches.sync();
    recording.clear();
    reconciler.reconcile(request);
    assertThat(recording.writes()).singleElement().matches(w -> w.endsWith("/status"));

    // The PodSet cache still shows the status from before that write; a pod event comes.
    caches.syncPods(pod -> true);
    recording.clear();
    reconciler.reconcile(request);

    assertThat(recording.writes()).as("the same status again").isEmpty();
    assertThat(stored().getStatus().readyReplicas()).isEqualTo(2);
  }

  @Test
  void reconcile_podCacheBehindOurImagePatch_neverSpendsTheUnavailableBudgetTwice() {
    createPodSet(imageSpec(4, "busybox:1.35", 1));
    converge();
    kubelet.run();
    converge();
    setSpec(imageSpec(4, "busybox:1.36", 1));
    caches.sync();
    recording.clear();
    reconciler.reconcile(request);
    assertThat(recording.writes()).singleElement().matches(w -> w.contains("/pods/"));

    // The pod cache still shows every pod on the old image and available.
    caches.syncPodSets();
    recording.clear();
    Result waiting = reconciler.reconcile(request);

    assertThat(recording.writes()).as("nothing until the pod cache shows the patch").isEmpty();
    assertThat(waiting.requeueAfter()).isPresent();
    caches.sync();
    reconciler.reconcile(request);
    assertThat(livePods().stream().filter(p -> !Pods.isAvailable(p)).count())
        .isLessThanOrEqualTo(1);
  }

  @Test
  void reconcile_imageChangeWithoutKubelet_patchesNotReadyPodsAtOnce() {
    createPodSet(imageSpec(3, "busybox:1.35", 1));
    converge();
    setSpec(imageSpec(3, "busybox:1.36", 1));

    converge();

    assertThat(livePods())
        .allSatisfy(
            p ->
                assertThat(p.getSpec().getContainers().get(0).getImage())
                    .isEqualTo("busybox:1.36"));
    assertSettled(3);
  }

  @Test
  void reconcile_commandChange_replacesPodsOneAtATime() {
    createPodSet(imageSpec(3, "busybox:1.35", 1));
    converge();
    kubelet.run();
    converge();
    Set<String> original = names(livePods());
    PodSetSpec changed = imageSpec(3, "busybox:1.35", 1);
    changed.template().getSpec().getContainers().get(0).setCommand(List.of("sleep", "7200"));
    setSpec(changed);

    int rounds = 0;
    while (!rolledOut(3)) {
      assertThat(++rounds).isLessThan(30);
      caches.sync();
      reconciler.reconcile(request);
      assertThat(livePods().stream().filter(Pods::isReady).count()).isGreaterThanOrEqualTo(2);
      caches.sync();
      reconciler.reconcile(request);
      kubelet.run();
      caches.sync();
      reconciler.reconcile(request);
    }

    assertThat(names(livePods())).doesNotContainAnyElementsOf(original);
    assertThat(livePods())
        .allSatisfy(
            p ->
                assertThat(p.getSpec().getContainers().get(0).getCommand())
                    .containsExactly("sleep", "7200"));
  }

  // ---- failures --------------------------------------------------------------------------

  private FaultRule.Builder podCreates() {
    return FaultRule.match().verbs("create").resource("pods").namespace(namespace);
  }

  @Test
  void reconcile_createForbiddenByQuota_replicaFailureThenClearedOnceCreatesWork() {
    createPodSet(PodSetSpec.ofReplicas(3));
    caches.sync();
    FaultInjector.Handle quota =
        server
            .faults()
            .add(
                podCreates()
                    .inject(
                        Fault.status(
                            403,
                            "Forbidden",
                            "pods \"web-x\" is forbidden: exceeded quota: pods, requested:"
                                + " pods=1, used: pods=0, limited: pods=0")));

    assertThatThrownBy(() -> reconciler.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class)
        .isNotInstanceOf(TerminalReconcileException.class)
        .hasMessageContaining("exceeded quota");

    // Slow start: the first batch (one pod) failed, so no more creates were sent.
    assertThat(quota.injected()).isEqualTo(1);
    assertThat(livePods()).isEmpty();
    PodSetCondition failure =
        stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow();
    assertThat(failure.status()).isEqualTo("True");
    assertThat(failure.reason()).isEqualTo("FailedCreate");
    assertThat(failure.message())
        .startsWith("cannot create pods: pods \"web-x\" is forbidden: exceeded quota")
        .endsWith("(HTTP 403 Forbidden)");
    assertThat(events).anyMatch(e -> e.startsWith("Warning FailedCreate Error creating: pods"));
    assertThat(events).noneMatch(e -> e.contains("SuccessfulCreate"));

    quota.remove();
    converge();

    assertSettled(3);
    assertThat(stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
  }

  @Test
  void reconcile_podCreateThrottled_writesNothingUntilTheRetryAfter_thenCreates() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler throttled = reconcilerWith(PodSetOptions.defaults().withClock(clock));
    try {
      createPodSet(PodSetSpec.ofReplicas(2));
      caches.sync();
      server
          .faults()
          .add(podCreates().times(1).inject(Fault.tooManyRequests(Duration.ofSeconds(2))));
      recording.clear();

      assertThatThrownBy(() -> throttled.reconcile(request))
          .isInstanceOf(PodSetReconcileException.class)
          .hasMessageContaining("429");
      assertThat(recording.writes())
          .containsExactly("POST /api/v1/namespaces/" + namespace + "/pods");

      // The controller's retry (5 ms later) or a pod event comes before the 2 s the server named:
      // nothing is sent; the pass asks to be run again when they are over.
      caches.sync();
      recording.clear();
      clock.advance(Duration.ofMillis(1900));
      assertThat(throttled.reconcile(request))
          .isEqualTo(Result.requeueAfter(Duration.ofMillis(100)));
      assertThat(recording.writes()).isEmpty();

      clock.advance(Duration.ofMillis(100));
      throttled.reconcile(request);
      assertThat(recording.writes().stream().filter(w -> w.startsWith("POST"))).hasSize(2);
      assertThat(livePods()).hasSize(2);
    } finally {
      throttled.close();
    }
  }

  @Test
  void reconcile_statusWriteFailed_theNextWaitsASecond_andWritesWhatChangedMeanwhile() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler retrying =
        reconcilerWith(PodSetOptions.defaults().withClock(clock).withStatusDelay(Duration.ZERO));
    try {
      createPodSet(PodSetSpec.ofReplicas(1));
      convergeWith(retrying);
      server
          .faults()
          .add(
              FaultRule.match()
                  .resource("podsets")
                  .subresource("status")
                  .namespace(namespace)
                  .times(1)
                  .inject(Fault.serverError(503)));
      // The pod becomes Ready: a status to write, refused once.
      kubelet.run();
      caches.sync();
      recording.clear();
      assertThatThrownBy(() -> retrying.reconcile(request))
          .isInstanceOf(PodSetReconcileException.class)
          .hasMessageContaining("cannot write status");
      assertThat(recording.writes()).filteredOn(w -> w.endsWith("/status")).hasSize(1);

      // The controller's retry (5 ms later), then passes for the pods' events, and a scale-up
      // whose pod is created at once: no status write during the second after the failure.
      recording.clear();
      for (int i = 0; i < 3; i++) {
        clock.advance(Duration.ofMillis(100));
        caches.sync();
        assertThat(retrying.reconcile(request).requeueAfter()).isPresent();
      }
      setSpec(PodSetSpec.ofReplicas(2));
      caches.sync();
      retrying.reconcile(request);
      kubelet.run();
      caches.sync();
      assertThat(retrying.reconcile(request).requeueAfter()).isPresent();
      assertThat(recording.writes()).noneMatch(w -> w.endsWith("/status"));
      assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).hasSize(1);

      // Once the second is over, one status write tells both pods, Ready.
      clock.advance(PodSetReconciler.STATUS_RETRY_WAIT);
      caches.sync();
      retrying.reconcile(request);
      assertThat(recording.writes()).filteredOn(w -> w.endsWith("/status")).hasSize(1);
      assertThat(stored().getStatus().readyReplicas()).isEqualTo(2);
    } finally {
      retrying.close();
    }
  }

  @Test
  void reconcile_serverError_retryable_shownOnceItLastedTheGrace() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    PodSetReconciler failing = reconcilerWith(PodSetOptions.defaults().withClock(clock));
    createPodSet(PodSetSpec.ofReplicas(2));
    caches.sync();
    FaultInjector.Handle etcd =
        server
            .faults()
            .add(
                podCreates()
                    .inject(Fault.status(500, "InternalError", "etcdserver: request timed out")));
    recording.clear();

    assertThatThrownBy(() -> failing.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class)
        .hasMessageContaining("etcdserver: request timed out (HTTP 500 InternalError)")
        // The server's answer stays attached, so the controller logs it as a transient failure.
        .cause()
        .isInstanceOf(KubernetesClientException.class)
        .extracting(e -> ((KubernetesClientException) e).getCode())
        .isEqualTo(500);
    // A retry usually cures a 5xx: no condition written (and removed again) for it yet.
    assertThat(recording.writes()).noneMatch(w -> w.endsWith("/status"));
    clock.advance(PodSetReconciler.TRANSIENT_FAILURE_GRACE.minusMillis(1));
    caches.sync();
    assertThatThrownBy(() -> failing.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class);
    assertThat(recording.writes()).noneMatch(w -> w.endsWith("/status"));

    // Failing for the whole grace: shown.
    clock.advance(Duration.ofMillis(1));
    caches.sync();
    assertThatThrownBy(() -> failing.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class);
    assertThat(
            stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow().message())
        .isEqualTo("cannot create pods: etcdserver: request timed out (HTTP 500 InternalError)");
    // The same failure again: the condition already tells it, nothing written.
    caches.sync();
    recording.clear();
    assertThatThrownBy(() -> failing.reconcile(request))
        .isInstanceOf(PodSetReconcileException.class);
    assertThat(recording.writes()).noneMatch(w -> w.endsWith("/status"));
    // The expectation of the failed create was lowered: the retry acts at once.
    etcd.remove();
    caches.sync();
    failing.reconcile(request);
    assertThat(livePods()).hasSize(2);
    failing.close();
  }

  @Test
  void reconcile_imageRejectedByServer_replicaFailureWithTheServersMessage() {
    createPodSet(imageSpec(1, " ", 1));
    caches.sync();

    assertThatThrownBy(() -> reconciler.reconcile(request))
        .isInstanceOf(TerminalReconcileException.class);
    assertThat(stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow())
        .satisfies(
            c -> {
              assertThat(c.reason()).isEqualTo("InvalidSpec");
              assertThat(c.message())
                  .isEqualTo(
                      "spec.template.spec.containers[0].image must be set (container 'busybox'),"
                          + " got ' '");
            });
    assertThat(recording.writes()).noneMatch(w -> w.startsWith("POST"));
  }

  @Test
  void reconcile_templateWithoutContainers_invalidSpecAndNoRetry() {
    PodTemplateSpec template = io.podset.api.v1alpha1.PodSetDefaults.template();
    template.getSpec().setContainers(new ArrayList<>());
    createPodSet(PodSetSpec.ofReplicas(2).withTemplate(template));
    caches.sync();

    assertThatThrownBy(() -> reconciler.reconcile(request))
        .isInstanceOf(TerminalReconcileException.class)
        .hasMessageContaining("spec.template.spec.containers must list at least one container");

    assertThat(recording.writes()).allMatch(w -> w.endsWith("/podsets/web/status"));
    PodSetCondition failure =
        stored().getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow();
    assertThat(failure.reason()).isEqualTo("InvalidSpec");
  }

  @Test
  void reconcile_nameTooLongForPodLabels_invalidSpec() {
    String longName = "a".repeat(70);
    admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, longName, PodSetSpec.ofReplicas(1)))
        .create();
    caches.sync();

    assertThatThrownBy(() -> reconciler.reconcile(new Request(namespace, longName)))
        .isInstanceOf(TerminalReconcileException.class)
        .hasMessageContaining("is 70 characters long; it must be at most 63");
    assertThat(livePods()).isEmpty();
  }
}
