package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.podset.api.v1alpha1.PodSet;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.junit5.WithRealApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator end to end on a real kube-apiserver with the garbage collector: {@code deploy/}
 * applied as written (namespace, CRD, RBAC), the operator run in-process through its real entry
 * point with the Deployment's arguments and authenticated as its ServiceAccount, so RBAC is
 * enforced: a permission missing from {@code deploy/rbac} makes a step below time out.
 *
 * <p>No kubelet runs: an informer here plays it and marks each pod Running and Ready through {@code
 * /status}.
 */
@WithRealApiServer(controllerManager = true)
class OperatorOnRealApiServerIT {

  private static final Path DEPLOY = Path.of("../deploy");
  private static final String NAMESPACE = "demo";
  private static final String NAME = "example-podset";

  @Test
  void seedExample_reachesThreeReadyPods_scalesToFiveAndBack_andIsGarbageCollected(
      RealApiServer server, @TempDir Path temp) throws Exception {
    KubernetesClient admin = server.client();
    apply(admin, DEPLOY.resolve("namespace.yaml"));
    server.installCrds(DEPLOY.resolve("crds/podsets.app.example.com-v1.yml"));
    try (var rbac = Files.list(DEPLOY.resolve("rbac"))) {
      for (Path file : rbac.sorted().toList()) {
        apply(admin, file);
      }
    }
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    SharedIndexInformer<Pod> kubelet =
        admin.pods().inNamespace(NAMESPACE).inform(new Kubelet(admin));
    try (InProcessOperator operator =
        InProcessOperator.start(server, temp.resolve("operator.kubeconfig"))) {
      apply(admin, DEPLOY.resolve("examples/podset.yaml"));

      awaitPodSet(admin, ps -> ready(ps, 3), "3 ready replicas");
      List<Pod> pods = admin.pods().inNamespace(NAMESPACE).list().getItems();
      assertThat(pods).hasSize(3);
      assertThat(pods)
          .allSatisfy(
              pod ->
                  assertThat(pod.getMetadata().getOwnerReferences())
                      .singleElement()
                      .satisfies(
                          owner -> {
                            assertThat(owner.getKind()).isEqualTo("PodSet");
                            assertThat(owner.getName()).isEqualTo(NAME);
                            assertThat(owner.getController()).isTrue();
                          }));

      podSets(admin).withName(NAME).scale(5);
      awaitPodSet(admin, ps -> ready(ps, 5), "5 ready replicas");
      podSets(admin).withName(NAME).scale(3);
      awaitPodSet(admin, ps -> ready(ps, 3), "back to 3 ready replicas");
      awaitPods(admin, live -> live.size() == 3, "3 pods after scaling in");

      // Events are written in the background, a moment after what they tell.
      Eventually.await(
          "a SuccessfulCreate Event about the PodSet naming its pods",
          () -> admin.v1().events().inNamespace(NAMESPACE).list().getItems(),
          events ->
              events.stream()
                  .anyMatch(
                      e ->
                          "PodSet".equals(e.getInvolvedObject().getKind())
                              && "SuccessfulCreate".equals(e.getReason())
                              && e.getMessage().startsWith("Created pods: " + NAME + "-")));

      podSets(admin).withName(NAME).delete();
      awaitPods(admin, List::isEmpty, "the garbage collector to delete the pods");
    } finally {
      kubelet.close();
    }
  }

  private static io.fabric8.kubernetes.client.dsl.MixedOperation<
          PodSet,
          io.fabric8.kubernetes.api.model.KubernetesResourceList<PodSet>,
          io.fabric8.kubernetes.client.dsl.Resource<PodSet>>
      podSetsAll(KubernetesClient client) {
    return client.resources(PodSet.class);
  }

  private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
          PodSet,
          io.fabric8.kubernetes.api.model.KubernetesResourceList<PodSet>,
          io.fabric8.kubernetes.client.dsl.Resource<PodSet>>
      podSets(KubernetesClient client) {
    return podSetsAll(client).inNamespace(NAMESPACE);
  }

  private static boolean ready(PodSet podSet, int replicas) {
    return podSet != null
        && podSet.getStatus() != null
        && podSet.getStatus().replicas() == replicas
        && podSet.getStatus().readyReplicas() == replicas;
  }

  private static void awaitPodSet(
      KubernetesClient client, Predicate<PodSet> condition, String what) {
    try {
      podSets(client).withName(NAME).waitUntilCondition(condition, 90, TimeUnit.SECONDS);
    } catch (KubernetesClientException e) {
      throw new AssertionError(
          "timed out waiting for " + what + "; PodSet now: " + podSets(client).withName(NAME).get(),
          e);
    }
  }

  private static void awaitPods(
      KubernetesClient client, Predicate<List<Pod>> condition, String what) throws Exception {
    Predicate<List<Pod>> live =
        pods ->
            condition.test(
                pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList());
    try {
      client.pods().inNamespace(NAMESPACE).informOnCondition(live).get(90, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(
          "timed out waiting for "
              + what
              + "; pods now: "
              + client.pods().inNamespace(NAMESPACE).list().getItems().stream()
                  .map(p -> p.getMetadata().getName())
                  .toList(),
          e);
    }
  }

  private static void apply(KubernetesClient client, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      for (HasMetadata item : client.load(in).items()) {
        if (item instanceof PodSet || "PodSet".equals(item.getKind())) {
          client.resource(item).inNamespace(NAMESPACE).create();
        } else {
          client.resource(item).forceConflicts().serverSideApply();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Marks each live pod Running and Ready through /status, as a kubelet would report it. */
  private record Kubelet(KubernetesClient client) implements ResourceEventHandler<Pod> {

    @Override
    public void onAdd(Pod pod) {
      markReady(pod);
    }

    @Override
    public void onUpdate(Pod oldPod, Pod pod) {
      markReady(pod);
    }

    @Override
    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {}

    private void markReady(Pod pod) {
      if (pod.getMetadata().getDeletionTimestamp() != null
          || "Running".equals(pod.getStatus() == null ? null : pod.getStatus().getPhase())) {
        return;
      }
      try {
        client
            .pods()
            .inNamespace(pod.getMetadata().getNamespace())
            .resource(pod)
            .editStatus(
                p -> {
                  p.getStatus().setPhase("Running");
                  p.getStatus()
                      .setConditions(
                          new ArrayList<>(
                              List.of(
                                  new PodConditionBuilder()
                                      .withType("Ready")
                                      .withStatus("True")
                                      .withLastTransitionTime(Instant.now().toString())
                                      .build())));
                  List<ContainerStatus> statuses = new ArrayList<>();
                  p.getSpec()
                      .getContainers()
                      .forEach(
                          c ->
                              statuses.add(
                                  new ContainerStatusBuilder()
                                      .withName(c.getName())
                                      .withImage(c.getImage())
                                      .withImageID("")
                                      .withReady(true)
                                      .withRestartCount(0)
                                      .withNewState()
                                      .withNewRunning()
                                      .withStartedAt(Instant.now().toString())
                                      .endRunning()
                                      .endState()
                                      .build()));
                  p.getStatus().setContainerStatuses(statuses);
                  return p;
                });
      } catch (KubernetesClientException e) {
        // 404: deleted meanwhile; 409: changed meanwhile, and that change brings another event.
        if (e.getCode() != 404 && e.getCode() != 409) {
          throw e;
        }
      }
    }
  }
}
