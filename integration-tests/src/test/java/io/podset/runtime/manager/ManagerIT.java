package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.reconcile.Result;
import io.podset.testkit.FakeApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
    KubernetesClient client = server.newClient();
    clients.add(client);
    return Manager.builder(client)
        .healthPort(ManagerBuilder.ANY_FREE_PORT)
        .metricsPort(ManagerBuilder.ANY_FREE_PORT)
        .leaderElection(election.withTimings(LEASE, RENEW, RETRY));
  }

  private Manager started(ManagerBuilder builder) {
    Manager manager = builder.build();
    managers.add(manager);
    manager.start();
    return manager;
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.onSpinWait();
      Thread.yield();
    }
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
