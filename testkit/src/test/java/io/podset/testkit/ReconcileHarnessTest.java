package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconcile harness and store snapshots. */
class ReconcileHarnessTest {

  private FakeApiServer server;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * Keeps {@code data.replicas} pods named {@code <owner>-<i>} owned by each ConfigMap; a create of
   * a pod the cache does not show yet answers AlreadyExists, which is fine.
   */
  private static Reconciler replicas(KubernetesClient client, SharedInformerFactory informers) {
    SharedInformer<ConfigMap> owners = informers.informerFor(ConfigMap.class);
    SharedInformer<Pod> pods = informers.informerFor(Pod.class);
    return (Request request) -> {
      ConfigMap owner =
          owners.indexer().getByKey(request.namespace() + "/" + request.name()).orElse(null);
      if (owner == null || owner.getData() == null || !owner.getData().containsKey("replicas")) {
        return Result.done();
      }
      int wanted = Integer.parseInt(owner.getData().get("replicas"));
      for (int i = 0; i < wanted; i++) {
        String name = request.name() + "-" + i;
        if (pods.indexer().getByKey(request.namespace() + "/" + name).isPresent()) {
          continue;
        }
        try {
          client
              .pods()
              .inNamespace(request.namespace())
              .resource(
                  new PodBuilder()
                      .withNewMetadata()
                      .withName(name)
                      .addNewOwnerReference()
                      .withApiVersion("v1")
                      .withKind("ConfigMap")
                      .withName(request.name())
                      .withUid(owner.getMetadata().getUid())
                      .withController(true)
                      .endOwnerReference()
                      .endMetadata()
                      .withNewSpec()
                      .addNewContainer()
                      .withName("app")
                      .withImage("nginx:1.27")
                      .endContainer()
                      .endSpec()
                      .build())
              .create();
        } catch (KubernetesClientException e) {
          if (e.getStatus() == null || !"AlreadyExists".equals(e.getStatus().getReason())) {
            throw e;
          }
        }
      }
      return Result.done();
    };
  }

  private ReconcileHarness harness() {
    return ReconcileHarness.builder(server)
        .controller(b -> b.forResource(ConfigMap.class).owns(Pod.class))
        .reconciler(ReconcileHarnessTest::replicas)
        .start();
  }

  @Test
  void runUntilQuiet_reportsReconcilesWritesAndErrors() {
    try (ReconcileHarness harness = harness()) {
      harness.runUntilQuiet(Duration.ofSeconds(30));
      server
          .client()
          .configMaps()
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("web")
                  .endMetadata()
                  .withData(Map.of("replicas", "3"))
                  .build())
          .create();
      ReconcileHarness.Report first = harness.runUntilQuiet(Duration.ofSeconds(30));
      assertThat(first.quiet()).isTrue();
      assertThat(first.reconciles()).contains(new Request("default", "web"));
      assertThat(first.errors()).isEmpty();
      // The test's own create of the ConfigMap, then exactly three pods.
      assertThat(first.writes())
          .filteredOn(r -> "pods".equals(r.resource()) && r.status() == 201)
          .hasSize(3)
          .allMatch(r -> r.verb().equals("create"));

      ReconcileHarness.Report idle = harness.runUntilQuiet(Duration.ofSeconds(30));
      assertThat(idle.quiet()).isTrue();
      assertThat(idle.writes()).isEmpty();

      // One injected conflict: the reconcile fails, is retried, and ends with 5 pods.
      server
          .faults()
          .add(FaultRule.match().verbs("create").resource("pods").nth(1).inject(Fault.conflict()));
      server
          .client()
          .configMaps()
          .withName("web")
          .edit(
              c -> {
                c.getData().put("replicas", "5");
                return c;
              });
      ReconcileHarness.Report retried = harness.runUntilQuiet(Duration.ofSeconds(30));
      assertThat(retried.quiet()).isTrue();
      assertThat(retried.errors())
          .singleElement()
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
      assertThat(server.client().pods().list().getItems()).hasSize(5);
    }
  }

  @Test
  void runUntilQuiet_watchEventLaterThanTheQuietPeriod_isWaitedFor() {
    try (ReconcileHarness harness = harness()) {
      harness.runUntilQuiet(Duration.ofSeconds(30));
      // The ConfigMap's event reaches the controller 1 s after the write: more than the 300 ms
      // quiet period, as on a loaded machine.
      server
          .faults()
          .add(
              FaultRule.match()
                  .resource("configmaps")
                  .inject(Fault.delayEvents(Duration.ofSeconds(1))));
      server
          .client()
          .configMaps()
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("late")
                  .endMetadata()
                  .withData(Map.of("replicas", "2"))
                  .build())
          .create();

      ReconcileHarness.Report report = harness.runUntilQuiet(Duration.ofSeconds(30));

      assertThat(report.quiet()).isTrue();
      assertThat(report.reconciles()).contains(new Request("default", "late"));
      assertThat(report.writes())
          .filteredOn(r -> "pods".equals(r.resource()) && r.status() == 201)
          .hasSize(2);
      assertThat(report.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }
  }

  @Test
  void snapshotRestore_bringsBackObjectsAsOrdinaryChanges() {
    KubernetesClient client = server.client();
    ConfigMap a =
        client
            .configMaps()
            .resource(new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().build())
            .create();
    client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("b")
                .endMetadata()
                .withData(Map.of("v", "1"))
                .build())
        .create();
    StoreSnapshot snapshot = server.snapshot();
    assertThat(snapshot.size()).isGreaterThanOrEqualTo(6);

    client.configMaps().withName("a").delete();
    client
        .configMaps()
        .withName("b")
        .edit(
            c -> {
              c.setData(Map.of("v", "2"));
              return c;
            });
    client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build())
        .create();
    long before = server.resourceVersion();

    server.restore(snapshot);
    ConfigMap restored = client.configMaps().withName("a").get();
    assertThat(restored.getMetadata().getUid()).isEqualTo(a.getMetadata().getUid());
    assertThat(Long.parseLong(restored.getMetadata().getResourceVersion())).isGreaterThan(before);
    assertThat(client.configMaps().withName("b").get().getData()).containsEntry("v", "1");
    assertThat(client.configMaps().withName("c").get()).isNull();
    assertThat(server.resourceVersion()).isEqualTo(before + 3);

    long settled = server.resourceVersion();
    server.restore(snapshot);
    assertThat(server.resourceVersion())
        .as("restoring the same state changes nothing")
        .isEqualTo(settled);
  }
}
