package io.podset.playground;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.operator.PodSetLabels;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The seed article's walk-through, live: creates {@code example-podset} with {@code replicas: 3}
 * and prints its progress until it settles.
 */
final class Demo {

  static final String NAMESPACE = "default";
  static final String NAME = "example-podset";
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Duration POLL = Duration.ofMillis(200);

  private final KubernetesClient client;
  private final PrintStream out;
  private final BooleanSupplier operatorRunning;

  /**
   * @param operatorRunning false once the operator has stopped: the example cannot settle then
   */
  Demo(KubernetesClient client, PrintStream out, BooleanSupplier operatorRunning) {
    this.client = client;
    this.out = out;
    this.operatorRunning = operatorRunning;
  }

  /** Creates the example and reports progress; true once 3/3 pods are ready. */
  boolean run() {
    client
        .resources(PodSet.class)
        .inNamespace(NAMESPACE)
        .resource(PodSet.of(NAMESPACE, NAME, PodSetSpec.ofReplicas(3)))
        .create();
    out.println("Created PodSet " + NAMESPACE + "/" + NAME + " with replicas: 3");
    String last = "";
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline && operatorRunning.getAsBoolean()) {
      PodSet podSet = client.resources(PodSet.class).inNamespace(NAMESPACE).withName(NAME).get();
      List<Pod> pods =
          client
              .pods()
              .inNamespace(NAMESPACE)
              .withLabel(PodSetLabels.PODSET, NAME)
              .list()
              .getItems();
      PodSetStatus status = podSet == null ? null : podSet.getStatus();
      int ready = status == null ? 0 : status.readyReplicas();
      String line = NAME + ": " + pods.size() + " pod(s) created, " + ready + "/3 ready";
      if (!line.equals(last)) {
        out.println(line);
        last = line;
      }
      if (ready == 3 && pods.size() == 3) {
        out.println(NAME + " settled: 3/3 ready. Try: kubectl scale ps " + NAME + " --replicas=5");
        return true;
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    out.println(
        operatorRunning.getAsBoolean()
            ? NAME + " did not settle within " + TIMEOUT
            : NAME + " did not settle: the operator stopped (see its log above)");
    return false;
  }
}
