package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.RequestJournal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The common set-up of the crash and failover tests: an API server with the PodSet CRD whose
 * operator traffic passes fault rules and a journal ({@link SoakTarget}: the fake with a simulated
 * kubelet, pods Ready within 200 ms and gone 200 ms after deletion; or a real control plane behind
 * a fault proxy), a namespace, and the observer ({@link ClusterHistory}, {@link OperatorView},
 * {@link PodSetInvariants}).
 */
final class ReliabilityCluster implements AutoCloseable {

  /** How long after the operator's view a request it sent may land. */
  static final Duration IN_FLIGHT = Duration.ofSeconds(5);

  final SoakTarget target;
  final KubernetesClient admin;
  final String namespace;
  final ClusterHistory history;
  final OperatorView view;
  final PodSetInvariants invariants;
  private final AutoCloseable owned;

  /** On a fake API server of its own. */
  ReliabilityCluster(String namespace) {
    this(namespace, fakeServer());
  }

  private ReliabilityCluster(String namespace, FakeApiServer server) {
    this(namespace, SoakTarget.fake(server), server);
  }

  /** On a real control plane behind a fault proxy, of its own. */
  static ReliabilityCluster onRealControlPlane(String namespace) {
    ProxiedControlPlane target = ProxiedControlPlane.start();
    return new ReliabilityCluster(namespace, target, target);
  }

  private ReliabilityCluster(String namespace, SoakTarget target, AutoCloseable owned) {
    this.namespace = namespace;
    this.target = target;
    this.owned = owned;
    admin = target.admin();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    history = ClusterHistory.start(target.observerUrl());
    view = new OperatorView();
    invariants = new PodSetInvariants(view, IN_FLIGHT, target.gcGrace());
    target.uncheckedNamespace().ifPresent(invariants::ignoreNamespace);
  }

  private static FakeApiServer fakeServer() {
    FakeApiServer server =
        FakeApiServer.builder()
            .kubelet(KubeletOptions.defaults().withTerminationDelay(Duration.ofMillis(200)))
            .bookmarkInterval(Duration.ofSeconds(1))
            .start();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    return server;
  }

  /** Starts an operator instance whose requests go through the target's rules and journal. */
  OperatorInstance startOperator(String name, LeaderElectionConfig election, int workers) {
    return target.startOperator(name, election, workers, event -> true);
  }

  /** The record of the operator's requests. */
  RequestJournal journal() {
    return target.journal();
  }

  /** Creates a PodSet of the default template. */
  void createPodSet(String name, int replicas) {
    admin
        .resources(PodSet.class)
        .inNamespace(namespace)
        .resource(PodSet.of(namespace, name, PodSetSpec.ofReplicas(replicas)))
        .create();
  }

  /** Checks the states observed so far. */
  void check() {
    invariants.advance(history);
  }

  /**
   * Checks the states observed so far, first waiting for the observer to have every change made so
   * far where its history would otherwise lag for long (a real server).
   */
  void checkRecent() {
    if (target.historyLagsWithoutSync()) {
      checkAll();
    } else {
      check();
    }
  }

  /** Waits until the observer has every change made so far, then checks them. */
  void checkAll() {
    history.awaitComplete(target.syncPoint(), Duration.ofSeconds(10));
    check();
  }

  /**
   * Waits until the observed cluster is converged (invariant 3), checking every state meanwhile.
   *
   * @return how long it took
   * @throws AssertionError listing what is not converged after {@code bound}
   */
  Duration awaitConverged(Duration bound) {
    long start = System.nanoTime();
    List<String> problems = List.of("not checked yet");
    while (!problems.isEmpty()) {
      if (System.nanoTime() - start > bound.toNanos()) {
        throw new AssertionError(
            "not converged within " + bound + ":\n  " + String.join("\n  ", problems));
      }
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      checkAll();
      problems = invariants.convergenceProblems();
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Override
  public void close() {
    history.close();
    view.close();
    try {
      owned.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop " + target.description(), e);
    }
  }
}
