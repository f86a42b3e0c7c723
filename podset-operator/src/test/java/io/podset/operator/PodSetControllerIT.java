package io.podset.operator;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.api.v1alpha1.PodSetUpdateStrategy;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole controller (shared informers, work queue, workers, {@link PodSetReconciler}) against
 * the testkit's fake API server: what a user sees after {@code kubectl apply}.
 */
class PodSetControllerIT {

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static FakeApiServer server;

  private String namespace;
  private KubernetesClient admin;
  private RecordingClient recording;
  private SharedInformerFactory informers;
  private Controller controller;
  private FakeKubelet kubelet;
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final MeterRegistry meters = new SimpleMeterRegistry();

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
    PodSetOptions options = PodSetOptions.defaults();
    controller =
        PodSetController.create(
            Controllers.builder(informers).clock(options.clock()).meterRegistry(meters),
            recording.client(),
            informers,
            recorder,
            options,
            InformerOptions.defaults().withNamespace(namespace));
    controller.start();
    kubelet = new FakeKubelet(admin, namespace);
  }

  @AfterEach
  void stop() {
    server.faults().clear();
    controller.close();
    informers.close();
    recording.close();
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
    recording.clear();

    admin.pods().inNamespace(namespace).withName(victim).delete();

    await(
        "a replacement",
        () ->
            settled("web", 3)
                && livePods("web").stream()
                    .noneMatch(p -> p.getMetadata().getName().equals(victim)));
    // Before replacing a pod it did not delete, the controller confirmed the PodSet exists.
    assertThat(recording.reads())
        .containsExactly(
            "GET /apis/app.example.com/v1alpha1/namespaces/" + namespace + "/podsets/web");
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
  void podSetEventsHeldBack_aRetryForADeletedPodSet_createsNothing_afterConfirmingItIsGone() {
    // An unrelated pod, changed later to move the pod cache on.
    admin.pods().inNamespace(namespace).resource(TestObjects.unrelatedPod("bystander")).create();
    // Pod creates are refused, so the PodSet's reconcile keeps being retried.
    FaultInjector.Handle refusal = refusePodCreates(Fault.serverError(500));
    create("web", PodSetSpec.ofReplicas(3));
    RequestMatcher podCreates = RequestMatcher.verb("create").resource("pods").namespace(namespace);
    await("a refused create", () -> server.journal().count(podCreates.status(500)) >= 1);
    // The failed reconcile wrote web's status, and the controller holds web's retries back until
    // the PodSet cache shows that write (read-your-writes): let the cache show it before it stops.
    var podSetCache =
        informers.informerFor(PodSet.class, InformerOptions.defaults().withNamespace(namespace));
    awaitFailureInCache(podSetCache, "web");

    // The PodSet cache stops following: the deletion is held back, it still shows web.
    FaultInjector.Handle hold =
        server.faults().add(FaultRule.match().resource("podsets").inject(Fault.holdEvents()));
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    // The pod cache moves past the deletion, the PodSet cache cannot.
    setBystanderLabels(Map.of("moved", "on"));
    awaitConfirmedGone("web");

    // Creates work again, and a pod event names web (an orphan with its label, to adopt). The GET
    // ended the retries (web is gone): nothing is under way.
    recording.clear();
    double before = reconciles(controller.name());
    refusal.remove();
    setBystanderLabels(Map.of(PodSetLabels.PODSET, "web"));
    await("a reconcile of web", () -> reconciles(controller.name()) > before);

    assertThat(server.journal().count(podCreates.status(201)))
        .as("pods created: only the bystander")
        .isEqualTo(1);
    assertThat(recording.writes()).as("no create, no adoption").isEmpty();
    assertThat(livePods("web"))
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("bystander");

    hold.remove();
    await("the deletion seen", () -> podSetCache.indexer().getByKey(namespace + "/web").isEmpty());
    assertThat(server.journal().count(podCreates.status(201))).isEqualTo(1);
  }

  @Test
  void bothCachesHeldBack_aRetryForADeletedPodSet_seesThePodSetWatchSilent_createsNothing() {
    // Pod creates are refused (a quota: the failure is written at once) and every pod watch event
    // is held back from here on: the pod cache stays behind everything that follows.
    FaultInjector.Handle refusal = refusePodCreates(Fault.status(403, "Forbidden", "quota"));
    FaultInjector.Handle podHold =
        server
            .faults()
            .add(
                FaultRule.match().resource("pods").namespace(namespace).inject(Fault.holdEvents()));
    create("web", PodSetSpec.ofReplicas(3));
    RequestMatcher podCreates = RequestMatcher.verb("create").resource("pods").namespace(namespace);
    var podSetCache =
        informers.informerFor(PodSet.class, InformerOptions.defaults().withNamespace(namespace));
    // The PodSet cache shows the failure written to web's status: it is ahead of the pod cache.
    awaitFailureInCache(podSetCache, "web");

    // Now the PodSet watch is held back too, and web is deleted: neither cache can show it. (Each
    // retry of web confirms it anyway, its last pass having failed: the first after the deletion
    // finds it gone.)
    FaultInjector.Handle podSetHold = holdPodSetEvents();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    await(
        "the PodSet watch silent for longer than the reconciler trusts",
        () ->
            !podSetCache.following(
                PodSetReconciler.PODSET_CACHE_TOLERANCE, PodSetReconciler.PODSET_CACHE_SILENCE));
    refusal.remove();
    awaitConfirmedGone("web");

    // Trusting the PodSet cache (newer than the pod cache) created 3 pods for the deleted web.
    // (Creates refused by the quota before the deletion are recorded too: count the ones done.)
    assertThat(server.journal().count(podCreates.status(201))).as("pods created").isZero();

    podSetHold.remove();
    podHold.remove();
    await("the deletion seen", () -> podSetCache.indexer().getByKey(namespace + "/web").isEmpty());
    assertThat(server.journal().count(podCreates.status(201))).isZero();
    assertThat(livePods("web")).isEmpty();
  }

  @Test
  void podSetDeletionHeldBackBriefly_afterRefusedCreates_theRetryConfirms_createsNothing() {
    // Pod creates meet server errors (their condition waits out the grace: no status write of ours
    // is pending while the PodSet watch is held below).
    FaultInjector.Handle refusal = refusePodCreates(Fault.serverError(500));
    create("web", PodSetSpec.ofReplicas(3));
    RequestMatcher podCreates = podCreates();
    await("a refused create", () -> server.journal().count(podCreates.status(500)) >= 1);

    // The PodSet watch is held back and web deleted: the PodSet cache still shows web and, by its
    // own signal, follows for a while yet (its watch open, nothing of ours waiting to be shown).
    // Trusting it, each retry would keep creating pods for the deleted web: a retry confirms web
    // first and finds it gone, which ends the retries.
    FaultInjector.Handle hold = holdPodSetEvents();
    admin.resources(PodSet.class).inNamespace(namespace).withName("web").delete();
    awaitConfirmedGone("web");

    // Creates work again (lifted only now: a retry that confirmed web just before the deletion
    // may still send its creates, as any controller's, and the garbage collector's to clean up).
    recording.clear();
    refusal.remove();
    hold.remove();
    await(
        "the deletion seen", () -> podSetCache().indexer().getByKey(namespace + "/web").isEmpty());
    assertThat(server.journal().count(podCreates.status(201))).as("pods created").isZero();
    assertThat(recording.writes()).filteredOn(w -> w.startsWith("POST")).isEmpty();
  }

  /**
   * Waits until {@code podSets} shows the ReplicaFailure written to PodSet {@code name}'s status.
   */
  private void awaitFailureInCache(SharedInformer<PodSet> podSets, String name) {
    await(
        "the PodSet cache shows the failure written to " + name + "'s status",
        () -> {
          PodSet live = stored(name);
          boolean failed =
              live.getStatus() != null
                  && live.getStatus()
                      .condition(PodSetCondition.REPLICA_FAILURE)
                      .map(PodSetCondition::isTrue)
                      .orElse(false);
          return failed
              && podSets
                  .indexer()
                  .getByKey(namespace + "/" + name)
                  .map(c -> c.getMetadata().getResourceVersion())
                  .filter(live.getMetadata().getResourceVersion()::equals)
                  .isPresent();
        });
  }

  /**
   * Waits until a pass confirmed PodSet {@code name} and found it gone (a GET of it answered 404),
   * and no reconcile is running: from then on no pass creates pods for it, each confirming first.
   *
   * <p>Why not the client's own recording: the GET may be sent (and recorded) just before the test
   * deletes the PodSet, and answered after; clearing the recording in between lost it.
   */
  private void awaitConfirmedGone(String name) {
    RequestMatcher confirmedGone =
        RequestMatcher.verb("get").resource("podsets").namespace(namespace).name(name).status(404);
    await(
        "a retry confirms " + name + " and finds it gone",
        () -> server.journal().count(confirmedGone) >= 1);
    await("that retry finished", () -> activeReconciles(controller.name()) == 0);
  }

  private double activeReconciles(String controllerName) {
    return meters
        .get("controller_runtime_active_workers")
        .tag("controller", controllerName)
        .gauge()
        .value();
  }

  private RequestMatcher podCreates() {
    return RequestMatcher.verb("create").resource("pods").namespace(namespace);
  }

  private SharedInformer<PodSet> podSetCache() {
    return informers.informerFor(PodSet.class, InformerOptions.defaults().withNamespace(namespace));
  }

  /** Holds back the events of every PodSet watch of the test's namespace, until removed. */
  private FaultInjector.Handle holdPodSetEvents() {
    return server
        .faults()
        .add(FaultRule.match().resource("podsets").namespace(namespace).inject(Fault.holdEvents()));
  }

  private FaultInjector.Handle refusePodCreates(Fault fault) {
    return server
        .faults()
        .add(FaultRule.match().verbs("create").resource("pods").namespace(namespace).inject(fault));
  }

  private void setBystanderLabels(Map<String, String> labels) {
    admin
        .pods()
        .inNamespace(namespace)
        .withName("bystander")
        .edit(
            p -> {
              p.getMetadata().setLabels(labels);
              return p;
            });
  }

  @Test
  void podEventsHeldBack_podsNeverExceedReplicas_whereTheSeedReconcilerOverCreates() {
    // The seed's reconciler (one pod per reconcile, no expectations) as a controller in its own
    // namespace, reconciling on every PodSet and Pod event, as the seed article wires it.
    String seedNamespace = namespace + "-seed";
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(seedNamespace).endMetadata().build())
        .create();
    InformerOptions seedScope = InformerOptions.defaults().withNamespace(seedNamespace);
    try (SharedInformerFactory seedInformers = SharedInformerFactory.create(admin)) {
      var seedPodSets = seedInformers.informerFor(PodSet.class, seedScope);
      var seedPods = seedInformers.informerFor(Pod.class, seedScope);
      seedPods.addIndexers(Map.of(Indexers.CONTROLLER_UID, Indexers.byControllerUid()));
      try (Controller seed =
          Controllers.builder(seedInformers)
              .named("seed")
              .informerOptions(seedScope)
              .forResource(PodSet.class)
              .owns(Pod.class)
              .meterRegistry(meters)
              .reconciler(
                  new SeedPodSetReconciler(admin, seedPodSets.indexer(), seedPods.indexer()))
              .build()) {
        seed.start();
        createIn(namespace, "web", 0);
        createIn(seedNamespace, "web", 0);
        await("ours settled at 0", () -> settled("web", 0));
        await("the seed's first reconcile", () -> reconciles("seed") >= 1);

        // A stale pod cache: pod watch events are held back in both namespaces while both
        // PodSets are scaled 2, 3, 2, 3, 2, each step waiting for both controllers to reconcile.
        List<Integer> replicas = List.of(0, 2, 3, 2, 3, 2);
        FaultInjector.Handle hold =
            server.faults().add(FaultRule.match().resource("pods").inject(Fault.holdEvents()));
        for (int step = 1; step < replicas.size(); step++) {
          double ours = reconciles(controller.name());
          double theirs = reconciles("seed");
          int n = replicas.get(step);
          setSpecIn(namespace, "web", n);
          setSpecIn(seedNamespace, "web", n);
          await("both reconciled scale " + n, () -> reconciles(controller.name()) > ours);
          await("the seed reconciled scale " + n, () -> reconciles("seed") > theirs);
        }
        assertThat(livePodsIn(namespace)).hasSize(2);
        assertThat(livePodsIn(seedNamespace)).hasSize(5);

        hold.remove();
        await("ours settled at 2 with the events delivered", () -> settled("web", 2));

        assertThat(podsBeyondReplicas(namespace, replicas)).isEmpty();
        assertThat(
                server
                    .journal()
                    .count(
                        RequestMatcher.verb("create")
                            .resource("pods")
                            .namespace(namespace)
                            .status(201)))
            .isEqualTo(2);
        assertThat(podsBeyondReplicas(seedNamespace, replicas))
            .as("the seed reconciler over-creates")
            .isNotEmpty();
      }
    }
  }

  private void createIn(String ns, String name, int replicas) {
    admin
        .resources(PodSet.class)
        .inNamespace(ns)
        .resource(PodSet.of(ns, name, PodSetSpec.ofReplicas(replicas)))
        .create();
  }

  private void setSpecIn(String ns, String name, int replicas) {
    admin
        .resources(PodSet.class)
        .inNamespace(ns)
        .withName(name)
        .edit(
            p -> {
              p.setSpec(PodSetSpec.ofReplicas(replicas));
              return p;
            });
  }

  private List<Pod> livePodsIn(String ns) {
    return admin.pods().inNamespace(ns).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  /** Reconciles the named controller finished, whatever their result. */
  private double reconciles(String controllerName) {
    Timer timer =
        meters.find("controller_runtime_reconcile_time").tag("controller", controllerName).timer();
    return timer == null ? 0 : timer.count();
  }

  /**
   * Replays the journal of namespace {@code ns} (one PodSet in it): the i-th successful write of
   * the PodSet's spec (create, update or patch; not its status) set {@code replicas.get(i)}; each
   * successful pod create adds a pod, each pod delete removes one. Returns the creates after which
   * there were more pods than the replicas in effect.
   */
  private static List<String> podsBeyondReplicas(String ns, List<Integer> replicas) {
    int specWrites = 0;
    int pods = 0;
    List<String> beyond = new ArrayList<>();
    for (RequestRecord r : server.journal().records(RequestMatcher.any().namespace(ns))) {
      if (r.status() / 100 != 2 || !r.isWrite()) {
        continue;
      }
      if ("podsets".equals(r.resource()) && r.subresource() == null) {
        specWrites++;
      } else if ("pods".equals(r.resource()) && r.subresource() == null) {
        pods += r.verb().equals("create") ? 1 : r.verb().equals("delete") ? -1 : 0;
        int desired = replicas.get(specWrites - 1);
        if (pods > desired) {
          beyond.add(r + ": " + pods + " pods for replicas " + desired);
        }
      }
    }
    return beyond;
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

  @ParameterizedTest
  @ValueSource(ints = {403, 500})
  void podCreatesRefused_replicaFailure_retriesWithGrowingGaps_clearedOnceTheFaultIsRemoved(
      int code) {
    String message =
        code == 403
            ? "pods \"web-x\" is forbidden: exceeded quota: pods, requested: pods=1, used:"
                + " pods=2, limited: pods=2"
            : "etcdserver: request timed out";
    FaultInjector.Handle refusal =
        refusePodCreates(Fault.status(code, code == 403 ? "Forbidden" : "InternalError", message));
    create("web", PodSetSpec.ofReplicas(3));

    RequestMatcher refused =
        RequestMatcher.verb("create").resource("pods").namespace(namespace).status(code);
    await("9 refused attempts", () -> server.journal().count(refused) >= 9);
    await(
        "ReplicaFailure",
        () ->
            stored("web").getStatus() != null
                && stored("web")
                    .getStatus()
                    .condition(PodSetCondition.REPLICA_FAILURE)
                    .map(PodSetCondition::isTrue)
                    .orElse(false));
    PodSetCondition failure =
        stored("web").getStatus().condition(PodSetCondition.REPLICA_FAILURE).orElseThrow();
    // A quota refusal shows at once; a 5xx, which a retry usually cures, once it lasted the grace.
    Instant firstRefusal = server.journal().records(refused).get(0).time();
    Instant firstStatus =
        server
            .journal()
            .records(
                RequestMatcher.verb("patch")
                    .resource("podsets")
                    .subresource("status")
                    .namespace(namespace))
            .get(0)
            .time();
    if (code == 403) {
      assertThat(Duration.between(firstRefusal, firstStatus))
          .isLessThan(PodSetReconciler.TRANSIENT_FAILURE_GRACE);
    } else {
      assertThat(Duration.between(firstRefusal, firstStatus))
          .isGreaterThanOrEqualTo(PodSetReconciler.TRANSIENT_FAILURE_GRACE);
    }
    assertThat(failure.reason()).isEqualTo("FailedCreate");
    assertThat(failure.message())
        .contains(code == 403 ? "exceeded quota" : "etcdserver")
        .endsWith("(HTTP " + code + (code == 403 ? " Forbidden)" : " InternalError)"));
    // One create per attempt (slow start stops at the first failed batch), retried at the
    // controller's per-key exponential backoff: after the i-th failure at least 5 ms * 2^i, so the
    // floor of the gap doubles each time. Our own status write does not trigger an early retry.
    // The gaps are measured on the server, from the journal.
    List<RequestRecord> attempts = server.journal().records(refused);
    List<Duration> gaps = new ArrayList<>();
    for (int i = 1; i < attempts.size(); i++) {
      gaps.add(Duration.between(attempts.get(i - 1).time(), attempts.get(i).time()));
    }
    for (int i = 0; i < 8; i++) {
      assertThat(gaps.get(i))
          .as("gap after failure %d: %s", i, gaps)
          .isGreaterThanOrEqualTo(Duration.ofMillis(5L << i));
    }
    assertThat(
            server
                .journal()
                .count(RequestMatcher.verb("create").resource("pods").namespace(namespace)))
        .as("every pod create was refused")
        .isEqualTo(attempts.size());
    assertThat(events)
        .anyMatch(
            e ->
                e.startsWith("web Warning FailedCreate Error creating: ")
                    && e.contains(code == 403 ? "exceeded quota" : "etcdserver"));

    refusal.remove();
    await("3 pods once creates work", () -> settled("web", 3));
    assertThat(stored("web").getStatus().condition(PodSetCondition.REPLICA_FAILURE)).isEmpty();
  }

  @Test
  void failingPodSet_doesNotBlockOthers() {
    PodTemplateSpec broken = PodSetDefaults.template();
    broken.getSpec().setContainers(new ArrayList<>());
    create("broken", PodSetSpec.ofReplicas(2).withTemplate(broken));
    FaultInjector.Handle etcd =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("create")
                    .resource("pods")
                    .namespace(namespace)
                    .inject(Fault.status(500, "InternalError", "etcdserver: request timed out")));
    create("flaky", PodSetSpec.ofReplicas(1));
    await(
        "flaky's failure",
        () ->
            stored("flaky").getStatus() != null
                && stored("flaky")
                    .getStatus()
                    .condition(PodSetCondition.REPLICA_FAILURE)
                    .isPresent());
    etcd.remove();

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
