package io.podset.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a kubelet would write, done by the test on demand: the testkit has no simulated kubelet yet.
 * {@link #run(Predicate)} makes pods Running and Ready on the images of their spec (a pod whose
 * image was patched is "restarted": its status image follows the spec).
 */
final class FakeKubelet {

  private final KubernetesClient client;
  private final String namespace;

  FakeKubelet(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** Brings every pod that {@code which} accepts to Running and Ready on its spec's images. */
  int run(Predicate<Pod> which) {
    int changed = 0;
    for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
      if (pod.getMetadata().getDeletionTimestamp() != null || !which.test(pod) || isCurrent(pod)) {
        continue;
      }
      client
          .pods()
          .inNamespace(namespace)
          .withName(pod.getMetadata().getName())
          .editStatus(
              p -> {
                p.getSpec().setNodeName("node-1");
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
                for (Container c : p.getSpec().getContainers()) {
                  statuses.add(
                      new ContainerStatusBuilder()
                          .withName(c.getName())
                          .withImage(c.getImage())
                          .withReady(true)
                          .withRestartCount(0)
                          .build());
                }
                p.getStatus().setContainerStatuses(statuses);
                return p;
              });
      changed++;
    }
    return changed;
  }

  /** Every pod Running and Ready on its images. */
  int run() {
    return run(pod -> true);
  }

  private static boolean isCurrent(Pod pod) {
    return Pods.isReady(pod)
        && "Running".equals(pod.getStatus().getPhase())
        && pod.getStatus().getContainerStatuses() != null
        && !pod.getStatus().getContainerStatuses().isEmpty()
        && Pods.runsSpecImages(pod);
  }
}
