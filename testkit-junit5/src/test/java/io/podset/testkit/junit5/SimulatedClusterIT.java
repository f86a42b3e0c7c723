package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.SimulatedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated cluster behaves as a cluster: the real scheduler binds pods to kwok's nodes, kwok
 * runs them to Ready (or to the fate their annotation names), the real controllers converge a
 * Deployment, and deletion goes through the kubelet's part.
 */
@WithSimulatedCluster(nodes = 2)
class SimulatedClusterIT extends ApiServerContract {

  private static final Eventually EVENTUALLY =
      Eventually.within(Duration.ofSeconds(60)).polling(Duration.ofMillis(100));

  private static String namespace;

  @BeforeAll
  static void namespace(KubernetesClient admin) {
    namespace =
        admin
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withGenerateName("sim-")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getName();
  }

  @Test
  void start_nodesReadyAndEveryPartRunning(SimulatedCluster cluster) {
    assertThat(cluster.nodeNames()).containsExactly("kwok-node-0", "kwok-node-1");
    assertThat(cluster.controllerManagerRunning()).isTrue();
    assertThat(cluster.version()).isEqualTo(ControlPlaneBinaries.DEFAULT_KUBE_VERSION);
    assertThat(cluster.startDuration()).isPositive();
    for (String name : cluster.nodeNames()) {
      Node node = cluster.client().nodes().withName(name).get();
      assertThat(node.getMetadata().getLabels())
          .containsEntry(SimulatedCluster.NODE_TYPE_LABEL, "kwok");
      assertThat(node.getStatus().getConditions())
          .anySatisfy(
              c -> {
                assertThat(c.getType()).isEqualTo("Ready");
                assertThat(c.getStatus()).isEqualTo("True");
              });
      assertThat(node.getStatus().getAllocatable()).containsKey("pods");
    }
  }

  @Test
  void deployment_realControllersAndSchedulerBringItToReady(SimulatedCluster cluster) {
    KubernetesClient admin = cluster.client();
    Deployment deployment =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .endMetadata()
            .withNewSpec()
            .withReplicas(3)
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("web")
            .withImage("nginx:1.27")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    admin.apps().deployments().inNamespace(namespace).resource(deployment).create();

    EVENTUALLY.until(
        "the Deployment 3/3 available",
        () -> admin.apps().deployments().inNamespace(namespace).withName("web").get(),
        d ->
            d.getStatus() != null
                && Objects.equals(d.getStatus().getAvailableReplicas(), 3)
                && Objects.equals(d.getStatus().getUpdatedReplicas(), 3));
    List<Pod> pods = admin.pods().inNamespace(namespace).withLabel("app", "web").list().getItems();
    Set<String> nodes =
        admin.nodes().list().getItems().stream()
            .map(n -> n.getMetadata().getName())
            .collect(Collectors.toSet());
    assertThat(pods).hasSize(3);
    assertThat(pods).extracting(p -> p.getSpec().getNodeName()).allMatch(nodes::contains);
    assertThat(pods).extracting(p -> p.getStatus().getPhase()).containsOnly("Running");
    assertThat(pods).extracting(p -> p.getStatus().getPodIP()).doesNotContainNull();
    // ServiceAccount admission ran: the default ServiceAccount was assigned.
    assertThat(pods).extracting(p -> p.getSpec().getServiceAccountName()).containsOnly("default");
    assertThat(pods)
        .extracting(p -> p.getMetadata().getOwnerReferences().get(0).getKind())
        .containsOnly("ReplicaSet");

    admin.apps().deployments().inNamespace(namespace).withName("web").scale(1);
    EVENTUALLY.until(
        "scaled in to one pod",
        () -> admin.pods().inNamespace(namespace).withLabel("app", "web").list().getItems(),
        live -> live.size() == 1);
  }

  @Test
  void fates_neverReadyAndFailByAnnotation(KubernetesClient admin) {
    admin.pods().inNamespace(namespace).resource(pod("unready", "never-ready")).create();
    admin.pods().inNamespace(namespace).resource(pod("failing", "fail")).create();

    Pod unready =
        EVENTUALLY.until(
            "the never-ready pod Running",
            () -> admin.pods().inNamespace(namespace).withName("unready").get(),
            p -> "Running".equals(p.getStatus().getPhase()));
    assertThat(condition(unready, "Ready")).isEqualTo("False");
    assertThat(unready.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(c -> assertThat(c.getReady()).isFalse());

    Pod failing =
        EVENTUALLY.until(
            "the failing pod Failed",
            () -> admin.pods().inNamespace(namespace).withName("failing").get(),
            p -> "Failed".equals(p.getStatus().getPhase()));
    assertThat(failing.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(c -> assertThat(c.getState().getTerminated().getExitCode()).isEqualTo(1));
  }

  @Test
  void fate_crashLoop_restartsInCrashLoopBackOff_neverReady(KubernetesClient admin) {
    admin.pods().inNamespace(namespace).resource(pod("crashing", "crash-loop")).create();

    Pod crashed =
        EVENTUALLY.until(
            "the crash-looping pod Running in CrashLoopBackOff",
            () -> admin.pods().inNamespace(namespace).withName("crashing").get(),
            p -> "Running".equals(p.getStatus().getPhase()));
    assertThat(condition(crashed, "Ready")).isEqualTo("False");
    assertThat(crashed.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getReady()).isFalse();
              assertThat(c.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
              assertThat(c.getLastState().getTerminated().getExitCode()).isEqualTo(1);
            });
    int firstRestarts = crashed.getStatus().getContainerStatuses().get(0).getRestartCount();

    Pod later =
        EVENTUALLY.until(
            "the container restarted and crashed again",
            () -> admin.pods().inNamespace(namespace).withName("crashing").get(),
            p -> p.getStatus().getContainerStatuses().get(0).getRestartCount() > firstRestarts);
    assertThat(condition(later, "Ready")).isEqualTo("False");
    assertThat(later.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())
        .isEqualTo("CrashLoopBackOff");
  }

  @Test
  void imagePatchedIntoRunningPod_restartsThatContainerOnTheNewImage(KubernetesClient admin) {
    admin.pods().inNamespace(namespace).resource(pod("patched", null)).create();
    awaitReady(admin, "patched");

    admin
        .pods()
        .inNamespace(namespace)
        .withName("patched")
        .edit(
            p -> {
              p.getSpec().getContainers().get(0).setImage("busybox:1.37");
              return p;
            });

    Pod after =
        EVENTUALLY.until(
            "the container restarted on busybox:1.37",
            () -> admin.pods().inNamespace(namespace).withName("patched").get(),
            p -> "busybox:1.37".equals(p.getStatus().getContainerStatuses().get(0).getImage()));
    ContainerStatus container = after.getStatus().getContainerStatuses().get(0);
    assertThat(container.getRestartCount()).isEqualTo(1);
    assertThat(container.getReady()).isTrue();
    assertThat(condition(after, "Ready")).isEqualTo("True");
  }

  @Test
  void deletedPod_isRemovedByTheSimulatedKubelet(KubernetesClient admin) {
    admin.pods().inNamespace(namespace).resource(pod("doomed", null)).create();
    awaitReady(admin, "doomed");

    admin.pods().inNamespace(namespace).withName("doomed").delete();

    EVENTUALLY.until(
        "the pod gone after its graceful deletion",
        () -> admin.pods().inNamespace(namespace).withName("doomed").get() == null);
  }

  @Test
  void addNode_takesPods(SimulatedCluster cluster) {
    Node added = cluster.addNode("extra-node");
    assertThat(added.getMetadata().getName()).isEqualTo("extra-node");

    KubernetesClient admin = cluster.client();
    Pod pinned = pod("pinned", null);
    pinned.getSpec().setNodeSelector(Map.of("kubernetes.io/hostname", "extra-node"));
    admin.pods().inNamespace(namespace).resource(pinned).create();
    Pod ready = awaitReady(admin, "pinned");
    assertThat(ready.getSpec().getNodeName()).isEqualTo("extra-node");
    Set<String> nodes =
        admin.nodes().list().getItems().stream()
            .map(n -> n.getMetadata().getName())
            .collect(Collectors.toSet());
    assertThat(nodes).contains("extra-node").containsAll(cluster.nodeNames());
  }

  private static Pod awaitReady(KubernetesClient admin, String name) {
    return EVENTUALLY.until(
        name + " Running and Ready",
        () -> admin.pods().inNamespace(namespace).withName(name).get(),
        p -> "Running".equals(p.getStatus().getPhase()) && "True".equals(condition(p, "Ready")));
  }

  private static String condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .map(c -> c.getStatus())
        .findFirst()
        .orElse(null);
  }

  private static Pod pod(String name, String fate) {
    PodBuilder builder = new PodBuilder().withNewMetadata().withName(name).endMetadata();
    if (fate != null) {
      builder.editMetadata().addToAnnotations(SimulatedCluster.FATE_KEY, fate).endMetadata();
    }
    return builder
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox:1.36")
        .withCommand("sleep", "3600")
        .endContainer()
        .endSpec()
        .build();
  }
}
