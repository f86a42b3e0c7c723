package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/** Creates the Node objects that kwok plays the kubelet of, and waits until they can take pods. */
final class SimulatedNodes {

  private SimulatedNodes() {}

  /** The node as a kubelet would register it, annotated for kwok. */
  static Node create(KubernetesClient admin, String name) {
    return admin
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(
                    Map.of(
                        "kubernetes.io/hostname",
                        name,
                        "kubernetes.io/os",
                        "linux",
                        "kubernetes.io/arch",
                        "amd64",
                        SimulatedCluster.NODE_TYPE_LABEL,
                        "kwok"))
                .withAnnotations(
                    Map.of(
                        ClusterComponents.KWOK_NODE_ANNOTATION,
                        "fake",
                        "node.alpha.kubernetes.io/ttl",
                        "0"))
                .endMetadata()
                .build())
        .create();
  }

  /**
   * Waits until each named node is Ready and carries no {@code NoSchedule} taint of the node
   * lifecycle controller (a new node is tainted not-ready until its first Ready status is seen).
   *
   * @throws ControlPlaneException when a watched process exits or the deadline passes
   */
  static void awaitSchedulable(
      KubernetesClient admin,
      List<String> names,
      long deadlineNanos,
      List<ManagedProcess> watched) {
    Readiness.await(
        names.size() + " simulated nodes Ready and schedulable",
        deadlineNanos,
        watched,
        () -> {
          for (String name : names) {
            Node node = admin.nodes().withName(name).get();
            if (node == null || !schedulable(node)) {
              return false;
            }
          }
          return true;
        });
  }

  private static boolean schedulable(Node node) {
    List<NodeCondition> conditions =
        node.getStatus() == null || node.getStatus().getConditions() == null
            ? List.of()
            : node.getStatus().getConditions();
    boolean ready =
        conditions.stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    List<Taint> taints =
        node.getSpec() == null || node.getSpec().getTaints() == null
            ? List.of()
            : node.getSpec().getTaints();
    boolean tainted =
        taints.stream()
            .anyMatch(
                t ->
                    "NoSchedule".equals(t.getEffect())
                        && t.getKey() != null
                        && t.getKey().startsWith("node.kubernetes.io/"));
    return ready && !tainted;
  }
}
