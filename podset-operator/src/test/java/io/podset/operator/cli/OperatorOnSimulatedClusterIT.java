package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetDefaults;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.SimulatedCluster;
import io.podset.testkit.junit5.WithSimulatedCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator end to end on a whole simulated cluster, as a user deploys it: {@code kubectl apply
 * -k deploy/} (namespace, CRD, ServiceAccount, RBAC and the operator's Deployment), the operator
 * run in-process through its real entry point with the Deployment's arguments and authenticated as
 * its ServiceAccount (RBAC enforced), then the seed's walk-through with kubectl: the example PodSet
 * reaches 3 pods Running and Ready on kwok's nodes (bound by the real scheduler), scales to 5, an
 * image change is rolled into the pods in place, a deleted node's pods are replaced on the others
 * (the real pod garbage collector removes them first), it scales to 1, and deleting it lets the
 * real garbage collector remove its pods. A Deployment of the same pod template goes through the
 * same steps next to it, run by the real controllers: what the operator must match.
 *
 * <p>The operator's own Deployment from {@code deploy/} is admitted (Pod Security {@code
 * restricted} in {@code podset-system}) and its two pods turn Ready on kwok's nodes, but kwok runs
 * no container: the operator under test is the one in this JVM.
 */
@WithSimulatedCluster(nodes = 3)
class OperatorOnSimulatedClusterIT {

  private static final Path DEPLOY = Path.of("../deploy");
  private static final String NAMESPACE = "demo";
  private static final String NAME = "example-podset";
  private static final String DEPLOYMENT = "example-deployment";
  // The node step waits for the pod garbage collector: 40 s quarantine, checked every 20 s.
  private static final Eventually EVENTUALLY =
      Eventually.within(Duration.ofSeconds(150)).polling(Duration.ofMillis(200));

  @Test
  void seedWalkThrough_onKwokNodes_nextToADeployment(SimulatedCluster cluster, @TempDir Path temp)
      throws Exception {
    KubernetesClient admin = cluster.client();
    Kubectl kubectl = new Kubectl(cluster.writeKubeconfig(temp.resolve("admin.kubeconfig")));
    kubectl.run(null, "apply", "-k", DEPLOY.toString());
    kubectl.run(null, "create", "namespace", NAMESPACE);
    EVENTUALLY.until(
        "the operator's Deployment from deploy/ admitted and available (kwok's pods)",
        () ->
            admin
                .apps()
                .deployments()
                .inNamespace("podset-system")
                .withName("podset-operator")
                .get(),
        d ->
            d != null
                && d.getStatus() != null
                && Objects.equals(d.getStatus().getAvailableReplicas(), 2));

    try (InProcessOperator operator =
        InProcessOperator.start(cluster, temp.resolve("operator.kubeconfig"))) {
      kubectl.run(
          null, "apply", "-n", NAMESPACE, "-f", DEPLOY.resolve("examples/podset.yaml").toString());
      admin.apps().deployments().inNamespace(NAMESPACE).resource(deployment()).create();
      awaitBoth(admin, 3, "the seed's example: 3 pods Running and Ready");
      assertThat(status(admin).readyReplicas()).isEqualTo(3);
      assertThat(podSetPods(admin))
          .allSatisfy(
              pod -> {
                assertThat(pod.getSpec().getNodeName()).isIn(cluster.nodeNames());
                assertThat(pod.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(o -> assertThat(o.getKind()).isEqualTo("PodSet"));
              });
      assertThat(kubectl.run(null, "get", "ps", "-n", NAMESPACE, NAME))
          .as("kubectl get ps: AGE, DESIRED, READY, CURRENT")
          .containsPattern(NAME + "\\s+\\S+\\s+3\\s+3\\s+3\\s");

      kubectl.run(null, "scale", "-n", NAMESPACE, "ps", NAME, "--replicas=5");
      kubectl.run(null, "scale", "-n", NAMESPACE, "deployment", DEPLOYMENT, "--replicas=5");
      awaitBoth(admin, 5, "scaled out to 5");

      // An image change: the operator patches it into its pods in place (same pods, containers
      // restarted by kwok on the new image); the Deployment rolls new pods.
      Set<String> uids = uids(podSetPods(admin));
      String image = "busybox:1.37";
      kubectl.run(
          null,
          "patch",
          "-n",
          NAMESPACE,
          "ps",
          NAME,
          "--type=merge",
          "-p",
          "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"busybox\","
              + "\"image\":\""
              + image
              + "\",\"command\":[\"sleep\",\"3600\"]}]}}}}");
      kubectl.run(
          null, "set", "image", "-n", NAMESPACE, "deployment/" + DEPLOYMENT, "busybox=" + image);
      EVENTUALLY.until(
          "5/5 updated and ready on " + image,
          () -> status(admin),
          s -> s != null && s.updatedReplicas() == 5 && s.readyReplicas() == 5);
      // The status counts a patched pod as updated at once; kwok reports its restart a moment
      // later, as a kubelet does.
      EVENTUALLY.until(
          "5 pods restarted once on " + image,
          () -> podSetPods(admin),
          pods ->
              pods.size() == 5
                  && pods.stream()
                      .map(pod -> pod.getStatus().getContainerStatuses().get(0))
                      .allMatch(c -> image.equals(c.getImage()) && c.getRestartCount() == 1));
      assertThat(uids(podSetPods(admin))).as("rolled in place, not replaced").isEqualTo(uids);
      awaitBoth(admin, 5, "both on the new image");

      // A node deleted: the pod garbage collector deletes its pods, both controllers replace them
      // on the remaining nodes.
      String node = podSetPods(admin).get(0).getSpec().getNodeName();
      Set<String> lost =
          podSetPods(admin).stream()
              .filter(p -> node.equals(p.getSpec().getNodeName()))
              .map(p -> p.getMetadata().getName())
              .collect(Collectors.toSet());
      kubectl.run(null, "delete", "node", node);
      EVENTUALLY.until(
          "the pods of node " + node + " " + lost + " replaced elsewhere",
          () -> podSetPods(admin),
          pods ->
              pods.size() == 5
                  && pods.stream()
                      .noneMatch(
                          p ->
                              node.equals(p.getSpec().getNodeName())
                                  || lost.contains(p.getMetadata().getName())));
      awaitBoth(admin, 5, "5 ready again without node " + node);
      // The pod garbage collector marks a lost pod Failed (DisruptionTarget) before it deletes it:
      // the Deployment's replacement can be Ready while the old pod is still there.
      EVENTUALLY.until(
          "the pod garbage collector to delete every pod of node " + node,
          () -> allPods(admin),
          pods -> pods.stream().noneMatch(p -> node.equals(p.getSpec().getNodeName())));

      kubectl.run(null, "scale", "-n", NAMESPACE, "ps", NAME, "--replicas=1");
      kubectl.run(null, "scale", "-n", NAMESPACE, "deployment", DEPLOYMENT, "--replicas=1");
      awaitBoth(admin, 1, "scaled in to 1");
      EVENTUALLY.until("one pod of the PodSet left", () -> podSetPods(admin).size() == 1);

      kubectl.run(null, "delete", "-n", NAMESPACE, "ps", NAME);
      kubectl.run(null, "delete", "-n", NAMESPACE, "deployment", DEPLOYMENT);
      EVENTUALLY.until("the garbage collector to remove every pod", () -> allPods(admin).isEmpty());
    }
  }

  /** The same pod template as the PodSet's default, in a Deployment. */
  private static Deployment deployment() {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(DEPLOYMENT)
        .endMetadata()
        .withNewSpec()
        .withReplicas(3)
        .withNewSelector()
        .addToMatchLabels("app", DEPLOYMENT)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", DEPLOYMENT)
        .endMetadata()
        .withSpec(PodSetDefaults.template().getSpec())
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Waits until the PodSet and the Deployment both have {@code replicas} ready and no more. */
  private static void awaitBoth(KubernetesClient admin, int replicas, String what) {
    EVENTUALLY
        .reporting(() -> "PodSet status: " + status(admin) + "; pods: " + describe(allPods(admin)))
        .until(
            what,
            () -> {
              PodSetStatus status = status(admin);
              Deployment d =
                  admin.apps().deployments().inNamespace(NAMESPACE).withName(DEPLOYMENT).get();
              return status != null
                  && status.replicas() == replicas
                  && status.readyReplicas() == replicas
                  && d != null
                  && d.getStatus() != null
                  && Objects.equals(d.getStatus().getReadyReplicas(), replicas)
                  && Objects.equals(d.getStatus().getUpdatedReplicas(), replicas)
                  && Objects.equals(d.getStatus().getReplicas(), replicas);
            });
  }

  private static PodSetStatus status(KubernetesClient admin) {
    PodSet podSet = admin.resources(PodSet.class).inNamespace(NAMESPACE).withName(NAME).get();
    return podSet == null ? null : podSet.getStatus();
  }

  private static List<Pod> podSetPods(KubernetesClient admin) {
    return allPods(admin).stream()
        .filter(
            p ->
                p.getMetadata().getOwnerReferences().stream()
                    .anyMatch(o -> "PodSet".equals(o.getKind())))
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  private static List<Pod> allPods(KubernetesClient admin) {
    return admin.pods().inNamespace(NAMESPACE).list().getItems();
  }

  private static Set<String> uids(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  private static Map<String, String> describe(List<Pod> pods) {
    return pods.stream()
        .collect(
            Collectors.toMap(
                p -> p.getMetadata().getName(),
                p ->
                    p.getSpec().getNodeName()
                        + "/"
                        + (p.getStatus() == null ? null : p.getStatus().getPhase())
                        + (p.getMetadata().getDeletionTimestamp() == null ? "" : "/deleting"),
                (a, b) -> a));
  }
}
