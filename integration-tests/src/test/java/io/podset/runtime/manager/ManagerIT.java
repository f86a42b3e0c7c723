package io.podset.runtime.manager;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.reconcile.Result;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ManagerIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  // Short timings keep handovers fast; the algorithm is the same as with 15 s / 10 s / 2 s. The
  // renew deadline leaves room for a loaded CI machine, where a renewal can take seconds.
  private static final Duration LEASE = Duration.ofMillis(6000);
  private static final Duration RENEW = Duration.ofMillis(4000);
  private static final Duration RETRY = Duration.ofMillis(400);

  private FakeApiServer server;
  private final List<Manager> managers = new ArrayList<>();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    server.client().namespaces().resource(namespace("ops")).create();
  }

  @AfterEach
  void stop() {
    managers.forEach(Manager::close);
    clients.forEach(KubernetesClient::close);
    server.close();
  }

  private static io.fabric8.kubernetes.api.model.Namespace namespace(String name) {
    return new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .build();
  }

  private ManagerBuilder builder(String identity) {
    return builder(LeaderElectionConfig.of("ops", "podset-operator", identity));
  }

  private ManagerBuilder builder(LeaderElectionConfig election) {
    // Each candidate's client has its own user agent, so the journal and fault rules tell them
    // apart. No retries inside fabric8 (its default retries a 5xx ten times with exponential
    // backoff, about 20 s in all): a failed renewal returns to the elector at once, as in the
    // operator, whose controllers own retries.
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(server.clientConfig())
                    .withUserAgent(userAgent(election.identity()))
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    clients.add(client);
    return Manager.builder(client)
        .healthPort(ManagerBuilder.ANY_FREE_PORT)
        .metricsPort(ManagerBuilder.ANY_FREE_PORT)
        .leaderElection(election.withTimings(LEASE, RENEW, RETRY));
  }

  private static String userAgent(String identity) {
    return "candidate-" + identity + "/test";
  }

  /** Matches the Lease updates (renewals) of candidate {@code identity}. */
  private static FaultRule.Builder leaseUpdatesFrom(String identity) {
    return FaultRule.match()
        .verbs("update")
        .resource("leases")
        .userAgentContaining(userAgent(identity));
  }

  private Manager started(ManagerBuilder builder) {
    Manager manager = builder.build();
    managers.add(manager);
    manager.start();
    return manager;
  }

  private String holder() {
    Lease lease = server.client().leases().inNamespace("ops").withName("podset-operator").get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  @Test
  void twoManagers_exactlyOneLeads_andClosingTheLeaderHandsOver() {
    Manager a = started(builder("a"));
    Manager b = started(builder("b"));
    await("a leader", () -> a.isLeader() || b.isLeader());
    Manager leader = a.isLeader() ? a : b;
    Manager standby = leader == a ? b : a;
    long checkUntil = System.nanoTime() + LEASE.toNanos();
    while (System.nanoTime() < checkUntil) {
      assertThat(a.isLeader() && b.isLeader()).as("two leaders").isFalse();
      Thread.onSpinWait();
    }

    long closed = System.nanoTime();
    leader.close();
    await("the standby to take over", standby::isLeader);

    // Released on close: the standby takes over at its next retry, not after a lease duration.
    assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(LEASE);
    assertThat(holder()).isEqualTo(standby == a ? "a" : "b");
  }

  @Test
  void leaderThatDiesWithoutRelease_isReplacedWithinTheLeaseDuration() {
    // As after a crash: the leader stops renewing without releasing the Lease.
    Manager a =
        started(
            builder(
                LeaderElectionConfig.of("ops", "podset-operator", "a").withReleaseOnCancel(false)));
    await("a leads", a::isLeader);
    Manager b = started(builder("b"));

    a.close();
    long crashed = System.nanoTime();
    await("b takes over", b::isLeader);

    Duration handover = Duration.ofNanos(System.nanoTime() - crashed);
    assertThat(handover)
        .isGreaterThanOrEqualTo(LEASE.minus(RETRY))
        .isLessThan(LEASE.multipliedBy(3));
  }

  @Test
  void fencedClient_refusesWritesOnceLeadershipIsLost_andTheManagerCampaignsAgain() {
    Manager a =
        started(
            builder(
                LeaderElectionConfig.of("ops", "podset-operator", "a")
                    .withOnLoss(LeaderElectionConfig.OnLoss.CAMPAIGN_AGAIN)));
    await("a leads", a::isLeader);
    a.client().configMaps().inNamespace("ops").resource(configMap("written-as-leader")).create();

    stealLease();

    await("a to lose leadership", () -> !a.isLeader());
    assertThatThrownBy(
            () ->
                a.client()
                    .configMaps()
                    .inNamespace("ops")
                    .resource(configMap("written-after-loss"))
                    .create())
        .satisfies(e -> assertThat(FencedClients.isFenced(e)).isTrue());
    assertThat(server.client().configMaps().inNamespace("ops").withName("written-after-loss").get())
        .isNull();
    assertThat(a.terminated()).isNotDone();
  }

  @Test
  void lostLeadership_withExitOnLoss_terminatesTheManagerWithAFailure() {
    Manager a = started(builder("a"));
    await("a leads", a::isLeader);

    stealLease();

    await("termination", () -> a.terminated().isDone());
    assertThat(a.terminated())
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(LeadershipLostException.class);
  }

  @Test
  void partitionedLeader_isReplaced_andMakesNoWriteAfterItsRenewDeadline() {
    for (String identity : List.of("a", "b")) {
      server
          .client()
          .configMaps()
          .inNamespace("ops")
          .resource(configMap("ledger-" + identity))
          .create();
    }
    server.client().configMaps().inNamespace("ops").resource(configMap("trigger")).create();
    AtomicBoolean partitioned = new AtomicBoolean();
    AtomicInteger refusedA = new AtomicInteger();
    Manager a = writer("a", partitioned, refusedA);
    await("a leads", a::isLeader);
    Manager b = writer("b", new AtomicBoolean(), new AtomicInteger());
    RequestMatcher writesByA = RequestMatcher.writes().userAgentContaining(userAgent("a"));
    await(
        "a's reconciler to write",
        () -> server.journal().count(writesByA.resource("configmaps").status(200)) > 0);

    // The partition: every Lease update from a fails; a's reads and b's requests go through.
    server.faults().add(leaseUpdatesFrom("a").inject(Fault.serverError(500)));
    partitioned.set(true);
    await("b takes over", b::isLeader);
    await("a's writer to be refused by the fence", () -> refusedA.get() > 0);
    await("a to step down", () -> !a.isLeader());
    RequestMatcher renewalsByB =
        RequestMatcher.verb("update").resource("leases").userAgentContaining(userAgent("b"));
    int renewedByB = server.journal().count(renewalsByB.status(200));
    await(
        "b to renew twice more",
        () -> server.journal().count(renewalsByB.status(200)) >= renewedByB + 2);
    assertThat(holder()).isEqualTo("b");

    // a's last successful renewal (or the acquisition, when it had not renewed yet).
    List<RequestRecord> leaseWritesByA =
        server
            .journal()
            .records(
                RequestMatcher.verb("create", "update")
                    .resource("leases")
                    .userAgentContaining(userAgent("a")));
    RequestRecord lastRenewal =
        leaseWritesByA.stream()
            .filter(r -> r.status() / 100 == 2)
            .reduce((x, y) -> y)
            .orElseThrow();
    assertThat(leaseWritesByA).as("a's failed renewals").anyMatch(r -> r.status() == 500);
    // The renewal took effect when the server answered it; the fence counts from before it was
    // sent.
    Instant renewDeadline = lastRenewal.time().plus(lastRenewal.duration()).plus(RENEW);
    List<RequestRecord> successfulWritesByA =
        server.journal().records(writesByA).stream().filter(r -> r.status() / 100 == 2).toList();
    assertThat(successfulWritesByA).as("a's successful writes").isNotEmpty();
    assertThat(successfulWritesByA)
        .as("a's successful writes after its renew deadline %s", renewDeadline)
        .noneMatch(r -> r.time().isAfter(renewDeadline));
    // And the point of fencing: the new leader's writes start after the old leader's last one.
    Instant lastWriteByA = successfulWritesByA.get(successfulWritesByA.size() - 1).time();
    List<RequestRecord> ledgerWritesByB =
        server
            .journal()
            .records(
                RequestMatcher.writes()
                    .resource("configmaps")
                    .userAgentContaining(userAgent("b"))
                    .status(200));
    assertThat(ledgerWritesByB).isNotEmpty().allMatch(r -> r.time().isAfter(lastWriteByA));
  }

  @Test
  void hungRenewal_isAbandoned_soTheLeaderStepsDownAtItsRenewDeadline() {
    Manager a = started(builder(campaignAgain("a")));
    await("a leads", a::isLeader);
    RequestMatcher renewalsByA =
        RequestMatcher.verb("update").resource("leases").userAgentContaining(userAgent("a"));
    int renewed = server.journal().count(renewalsByA.status(200));
    await("a to renew", () -> server.journal().count(renewalsByA.status(200)) > renewed);

    // Every Lease update from a now hangs past fabric8's own request timeout (10 s).
    FaultInjector.Handle hang =
        server.faults().add(leaseUpdatesFrom("a").inject(Fault.latency(Duration.ofSeconds(12))));
    await("a to step down", () -> !a.isLeader());
    Instant steppedDown = Instant.now();
    hang.remove();

    RequestRecord lastRenewal =
        server.journal().records(renewalsByA.status(200)).stream()
            .reduce((x, y) -> y)
            .orElseThrow();
    // The elector counts from when it sent the renewal, before the server received it; the
    // tolerance covers scheduling on a loaded machine, far below the 10 s a hung request takes.
    Instant deadline = lastRenewal.time().plus(lastRenewal.duration()).plus(RENEW);
    assertThat(steppedDown)
        .as("stepped down at %s, renew deadline %s", steppedDown, deadline)
        .isBefore(deadline.plus(Duration.ofMillis(1500)));
  }

  private static LeaderElectionConfig campaignAgain(String identity) {
    return LeaderElectionConfig.of("ops", "podset-operator", identity)
        .withOnLoss(LeaderElectionConfig.OnLoss.CAMPAIGN_AGAIN);
  }

  /**
   * A manager (a candidate with identity {@code identity}) whose controller keeps writing to its
   * ledger ConfigMap while it leads: a patch per reconcile of the trigger, requeued every 20 ms;
   * once {@code partitioned} is set, in a loop until the fence refuses a write (so a reconcile is
   * in flight when the renew deadline passes).
   */
  private Manager writer(String identity, AtomicBoolean partitioned, AtomicInteger refused) {
    Manager manager = builder(campaignAgain(identity)).build();
    managers.add(manager);
    String ledger = "ledger-" + identity;
    AtomicInteger written = new AtomicInteger();
    manager.addController(
        () ->
            manager
                .controllerBuilder()
                .named("writer")
                .forResource(ConfigMap.class)
                .reconciler(
                    request -> {
                      if (!request.name().equals("trigger")) {
                        return Result.done();
                      }
                      do {
                        try {
                          manager
                              .client()
                              .configMaps()
                              .inNamespace("ops")
                              .withName(ledger)
                              .patch(
                                  PatchContext.of(PatchType.JSON_MERGE),
                                  "{\"data\":{\"n\":\"" + written.incrementAndGet() + "\"}}");
                        } catch (RuntimeException e) {
                          if (!FencedClients.isFenced(e)) {
                            throw e;
                          }
                          refused.incrementAndGet();
                          break;
                        }
                      } while (partitioned.get());
                      return Result.requeueAfter(Duration.ofMillis(20));
                    })
                .build());
    manager.start();
    return manager;
  }

  /** Another candidate overwrites the Lease, as after a partition: the holder cannot renew. */
  private void stealLease() {
    for (int attempt = 0; ; attempt++) {
      Lease lease = server.client().leases().inNamespace("ops").withName("podset-operator").get();
      lease.getSpec().setHolderIdentity("thief");
      try {
        server.client().leases().inNamespace("ops").resource(lease).update();
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        // The holder renewed between our read and write: read again, as any client would.
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace("ops")
        .withName(name)
        .endMetadata()
        .build();
  }

  @Test
  void readyz_isFalseWhileACrdIsMissing_andTrueOnceItsCacheSyncs() throws Exception {
    Manager manager =
        Manager.builder(server.newClient())
            .healthPort(ManagerBuilder.ANY_FREE_PORT)
            .metricsPort(ManagerBuilder.ANY_FREE_PORT)
            .build();
    managers.add(manager);
    ResourceDefinitionContext widgets =
        new ResourceDefinitionContext.Builder()
            .withGroup("example.com")
            .withVersion("v1")
            .withKind("Widget")
            .withPlural("widgets")
            .withNamespaced(true)
            .build();
    manager.informers().informerFor(widgets, InformerOptions.defaults());
    manager.start();
    int port = manager.healthPort();

    await("readyz to answer", () -> get(port, "/readyz").statusCode() > 0);
    HttpResponse<String> notReady = get(port, "/readyz");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).contains("[-]informer").contains("not synced");
    assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);

    server.installCrds(
        new java.io.ByteArrayInputStream(
            WIDGET_CRD.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    await("readyz to pass", () -> get(port, "/readyz").statusCode() == 200);
    assertThat(get(port, "/readyz").body()).contains("readyz check passed");
  }

  @Test
  void metrics_exposeReconcileWorkqueueJvmAndLeaderSeries() throws Exception {
    CountDownLatch reconciled = new CountDownLatch(1);
    ManagerBuilder builder = builder("a");
    Manager manager = builder.build();
    managers.add(manager);
    manager.addController(
        () ->
            manager
                .controllerBuilder()
                .named("configmaps")
                .forResource(ConfigMap.class)
                .reconciler(
                    request -> {
                      reconciled.countDown();
                      return Result.done();
                    })
                .build());
    manager.start();
    await("leadership", manager::isLeader);
    server.client().configMaps().inNamespace("ops").resource(configMap("c")).create();
    assertThat(reconciled.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

    String metrics = get(manager.metricsPort(), "/metrics").body();
    assertThat(metrics)
        .contains(
            "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"}")
        .contains("controller_runtime_reconcile_time_seconds_bucket")
        .contains("workqueue_adds_total{name=\"configmaps\"}")
        .contains("workqueue_depth{name=\"configmaps\"}")
        .contains("informer_lists_total{name=\"ConfigMap[")
        .contains("informer_events_total{name=\"ConfigMap[")
        .contains("informer_cache_size{name=\"ConfigMap[")
        .contains("jvm_memory_used_bytes")
        .contains("leader_election_master_status{name=\"podset-operator\"} 1");
  }

  @Test
  void eventRecorder_aggregatesAHundredRepeatsIntoOneEvent() {
    Manager manager =
        started(
            Manager.builder(server.newClient())
                .healthPort(ManagerBuilder.ANY_FREE_PORT)
                .metricsPort(ManagerBuilder.ANY_FREE_PORT));
    ConfigMap subject =
        server.client().configMaps().inNamespace("ops").resource(configMap("subject")).create();

    for (int i = 0; i < 100; i++) {
      manager.eventRecorder().warning(subject, "FailedCreate", "quota exceeded");
    }

    await(
        "one event with count 100",
        () -> {
          List<Event> events = server.client().v1().events().inNamespace("ops").list().getItems();
          return events.size() == 1 && Integer.valueOf(100).equals(events.get(0).getCount());
        });
  }

  @Test
  void shutdown_waitsForTheInFlightReconcile_thenReleasesTheLease() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Manager manager = builder("a").build();
    managers.add(manager);
    manager.addController(
        () ->
            manager
                .controllerBuilder()
                .named("slow")
                .forResource(ConfigMap.class)
                .reconciler(
                    request -> {
                      inside.countDown();
                      release.await();
                      return Result.done();
                    })
                .build());
    manager.start();
    await("leadership", manager::isLeader);
    server.client().configMaps().inNamespace("ops").resource(configMap("c")).create();
    assertThat(inside.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

    var shutdown =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> manager.shutdown(Duration.ofSeconds(20)));
    // While the reconcile runs, shutdown waits and the Lease stays held.
    long until = System.nanoTime() + Duration.ofMillis(300).toNanos();
    while (System.nanoTime() < until) {
      assertThat(shutdown).isNotDone();
      Thread.onSpinWait();
    }
    assertThat(holder()).isEqualTo("a");

    release.countDown();
    assertThat(shutdown.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(holder()).isEmpty();
    assertThat(manager.terminated()).isCompleted();
  }

  private HttpResponse<String> get(int port, String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static final String WIDGET_CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: widgets.example.com
      spec:
        group: example.com
        scope: Namespaced
        names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
        versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;
}
