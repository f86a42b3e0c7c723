package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.KubeletOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The common set-up of the crash and failover tests: a fake API server with the PodSet CRD, a
 * simulated kubelet (pods Ready within 200 ms, gone 200 ms after deletion), a namespace, and the
 * observer ({@link ClusterHistory}, {@link OperatorView}, {@link PodSetInvariants}).
 */
final class ReliabilityCluster implements AutoCloseable {

  /** How long after the operator's view a request it sent may land. */
  static final Duration IN_FLIGHT = Duration.ofSeconds(5);

  /** How long an active pod of a deleted PodSet may be seen. */
  static final Duration GC_GRACE = Duration.ofSeconds(2);

  final FakeApiServer server;
  final KubernetesClient admin;
  final String namespace;
  final ClusterHistory history;
  final OperatorView view;
  final PodSetInvariants invariants;

  ReliabilityCluster(String namespace) {
    this.namespace = namespace;
    server =
        FakeApiServer.builder()
            .kubelet(KubeletOptions.defaults().withTerminationDelay(Duration.ofMillis(200)))
            .bookmarkInterval(Duration.ofSeconds(1))
            .start();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    admin = server.client();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    history = ClusterHistory.start(server.url());
    view = new OperatorView();
    invariants = new PodSetInvariants(view, IN_FLIGHT, GC_GRACE);
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
      history.awaitComplete(server.resourceVersion(), Duration.ofSeconds(10));
      check();
      problems = invariants.convergenceProblems();
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Override
  public void close() {
    history.close();
    view.close();
    server.close();
  }
}
