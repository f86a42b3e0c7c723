package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.runtime.event.Event;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.Eventually;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultProxy;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.SimulatedCluster;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;

/**
 * A real control plane (kube-apiserver, etcd, the controller manager's garbage collector, and for
 * Ready pods a scheduler and kwok) with a {@link FaultProxy} in front: the operator and the
 * observer go through the proxy, the driver straight to the server.
 *
 * <p>kube-apiserver sends a watch a bookmark about once a minute, so a quiet resource's watch of
 * the observer would not show for a minute that nothing changed. {@link #syncPoint()} therefore
 * writes a marker of each observed kind (a Lease, an unowned Pod, a PodSet of 0 replicas, all in
 * namespace {@value #MARKER_NAMESPACE}): once each watch showed its marker's change, it showed
 * every change made before.
 */
final class ProxiedControlPlane implements SoakTarget, AutoCloseable {

  static final String MARKER_NAMESPACE = "chaos-observer";
  private static final Path CRD = Path.of("../deploy/crds/podsets.app.example.com-v1.yml");
  private static final String MARKER = "sync-marker";
  private static final String SYNC_ANNOTATION = "chaos.example.com/sync";
  private static final String GC_PROBE = "gc-probe";

  /**
   * How long the collector may take to start collecting PodSet dependents: it watches a new CRD's
   * kind only after its discovery resync, every 30 s, so up to 30 s plus its start on a loaded
   * machine.
   */
  private static final Duration GC_READY_BOUND = Duration.ofSeconds(90);

  private final RealApiServer server;
  private final FaultProxy proxy;
  private final KubernetesClient admin;
  private long syncs;

  /**
   * Starts a simulated cluster (3 kwok nodes) with the PodSet CRD and a proxy in front; closing the
   * target stops both. Without the control plane's binaries the calling test is skipped (in CI it
   * fails: {@link ControlPlaneBinaries#required()}).
   */
  static ProxiedControlPlane start() {
    SimulatedCluster cluster;
    try {
      cluster = SimulatedCluster.builder().nodes(3).crdFile(CRD).start();
    } catch (ControlPlaneBinariesMissingException e) {
      if (ControlPlaneBinaries.required()) {
        throw e;
      }
      Assumptions.abort("skipped: " + e.getMessage());
      throw e; // not reached: abort throws
    }
    try {
      return new ProxiedControlPlane(cluster);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** Puts a proxy in front of {@code server} and creates the markers (the PodSet CRD is there). */
  private ProxiedControlPlane(RealApiServer server) {
    this.server = Objects.requireNonNull(server, "server");
    this.proxy = FaultProxy.forwardingTo(server.clientConfig()).start();
    this.admin = server.client();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(MARKER_NAMESPACE)
                .endMetadata()
                .build())
        .create();
    admin
        .leases()
        .inNamespace(MARKER_NAMESPACE)
        .resource(new LeaseBuilder().withNewMetadata().withName(MARKER).endMetadata().build())
        .create();
    admin
        .pods()
        .inNamespace(MARKER_NAMESPACE)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(MARKER)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox:1.36")
                .endContainer()
                .endSpec()
                .build())
        .create();
    admin
        .resources(PodSet.class)
        .inNamespace(MARKER_NAMESPACE)
        .resource(PodSet.of(MARKER_NAMESPACE, MARKER, PodSetSpec.ofReplicas(0)))
        .create();
    awaitGarbageCollectorFollowsPodSets();
  }

  /**
   * Deletes a probe PodSet that owns a ConfigMap and waits until the garbage collector removed the
   * ConfigMap. The soak bounds how long pods of a deleted PodSet stay ({@link #gcGrace()}); a
   * collector that does not watch PodSets yet would break that bound for reasons outside the
   * operator.
   */
  private void awaitGarbageCollectorFollowsPodSets() {
    PodSet owner =
        admin
            .resources(PodSet.class)
            .inNamespace(MARKER_NAMESPACE)
            .resource(PodSet.of(MARKER_NAMESPACE, GC_PROBE, PodSetSpec.ofReplicas(0)))
            .create();
    admin
        .configMaps()
        .inNamespace(MARKER_NAMESPACE)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(GC_PROBE)
                .addNewOwnerReference()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(GC_PROBE)
                .withUid(owner.getMetadata().getUid())
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();
    admin.resources(PodSet.class).inNamespace(MARKER_NAMESPACE).withName(GC_PROBE).delete();
    Eventually.within(GC_READY_BOUND)
        .polling(Duration.ofMillis(200))
        .until(
            "the garbage collector to remove the probe PodSet's ConfigMap",
            () ->
                admin.configMaps().inNamespace(MARKER_NAMESPACE).withName(GC_PROBE).get() == null);
  }

  @Override
  public String description() {
    return "kube-apiserver " + server.version() + " through the fault proxy";
  }

  @Override
  public KubernetesClient admin() {
    return admin;
  }

  @Override
  public FaultInjector faults() {
    return proxy.faults();
  }

  @Override
  public RequestJournal journal() {
    return proxy.journal();
  }

  @Override
  public Runnable compaction() {
    return null;
  }

  @Override
  public List<FaultCampaign.Kind> faultKinds() {
    return FaultCampaign.ALL_KINDS;
  }

  @Override
  public URI observerUrl() {
    return proxy.url();
  }

  @Override
  public OperatorInstance startOperator(
      String name,
      LeaderElectionConfig election,
      int workers,
      Predicate<? super Event<? extends HasMetadata>> eventFilter) {
    return OperatorInstance.start(
        proxy.clientConfig(), proxy.url(), name, election, workers, eventFilter);
  }

  @Override
  public synchronized long syncPoint() {
    String patch =
        "{\"metadata\":{\"annotations\":{\"" + SYNC_ANNOTATION + "\":\"" + (++syncs) + "\"}}}";
    long least = Long.MAX_VALUE;
    for (Resource<? extends HasMetadata> marker :
        List.<Resource<? extends HasMetadata>>of(
            admin.leases().inNamespace(MARKER_NAMESPACE).withName(MARKER),
            admin.pods().inNamespace(MARKER_NAMESPACE).withName(MARKER),
            admin.resources(PodSet.class).inNamespace(MARKER_NAMESPACE).withName(MARKER))) {
      HasMetadata written = marker.patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      least = Math.min(least, Long.parseLong(written.getMetadata().getResourceVersion()));
    }
    return least;
  }

  @Override
  public Duration gcGrace() {
    // The controller manager's collector deletes dependents after it saw the owner's deletion,
    // through its own informers: seconds on a loaded machine.
    return Duration.ofSeconds(10);
  }

  @Override
  public boolean historyLagsWithoutSync() {
    return true;
  }

  @Override
  public Optional<String> uncheckedNamespace() {
    return Optional.of(MARKER_NAMESPACE);
  }

  /** Stops the proxy, then the control plane. */
  @Override
  public void close() {
    try {
      proxy.close();
    } finally {
      server.close();
    }
  }
}
