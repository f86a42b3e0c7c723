package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.junit5.WithRealApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Failover on a real kube-apiserver: two operator instances with leader election through the real
 * Lease API (optimistic concurrency by resourceVersion, as in a cluster); the leader is killed
 * abruptly (its connections reset, no Lease release) in the middle of a scale-up and replaced by a
 * fresh instance, repeatedly. No kubelet and no garbage collector run, so no pod ever disappears:
 * every pod created is counted from a watch, and the total must equal the replicas asked for — a
 * duplicate create by an old and a new leader would show. Prints the handover times.
 */
@WithRealApiServer
class FailoverOnRealApiServerIT {

  private static final String NAMESPACE = "failover";
  private static final int PODSETS = 4;
  private static final int ROUNDS = 3;
  private static final Duration LEASE = Duration.ofSeconds(4);
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(3);
  private static final Duration RETRY = Duration.ofMillis(500);

  /** Lease duration, retry period and the client's jitter, with room for a loaded machine. */
  private static final Duration HANDOVER_BOUND = Duration.ofSeconds(15);

  private final List<OperatorInstance> live = new ArrayList<>();
  private int names;

  @AfterEach
  void stop() {
    live.forEach(OperatorInstance::close);
  }

  private OperatorInstance startInstance(RealApiServer server) {
    String name = "real-" + (char) ('a' + names++);
    LeaderElectionConfig election =
        LeaderElectionConfig.of(NAMESPACE, "podset-operator", name)
            .withTimings(LEASE, RENEW_DEADLINE, RETRY)
            .withOnLoss(LeaderElectionConfig.OnLoss.CAMPAIGN_AGAIN);
    OperatorInstance instance =
        OperatorInstance.start(server.clientConfig(), server.url(), name, election, 2);
    live.add(instance);
    return instance;
  }

  @Test
  void leaderKilledRepeatedly_followerTakesOver_noPodCreatedTwice(RealApiServer server) {
    KubernetesClient admin = server.client();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    Set<String> created = ConcurrentHashMap.newKeySet();
    try (Watch pods = admin.pods().inNamespace(NAMESPACE).watch(recordAdded(created))) {
      startInstance(server);
      startInstance(server);
      int replicas = 1;
      for (int i = 0; i < PODSETS; i++) {
        admin
            .resources(PodSet.class)
            .inNamespace(NAMESPACE)
            .resource(PodSet.of(NAMESPACE, "ps-" + i, PodSetSpec.ofReplicas(replicas)))
            .create();
      }
      awaitPods(admin, replicas);

      List<Duration> handovers = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        String leader = awaitHolder(admin, null);
        OperatorInstance victim =
            live.stream().filter(o -> o.name().equals(leader)).findFirst().orElseThrow();
        // Scale up, then kill the leader while it is creating the pods.
        replicas += 2;
        for (int i = 0; i < PODSETS; i++) {
          admin
              .resources(PodSet.class)
              .inNamespace(NAMESPACE)
              .withName("ps-" + i)
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"spec\":{\"replicas\":" + replicas + "}}");
        }
        long killed = System.nanoTime();
        victim.kill();
        live.remove(victim);
        startInstance(server);
        String next = awaitHolder(admin, leader);
        handovers.add(Duration.ofNanos(System.nanoTime() - killed));
        System.out.printf(
            "round %d: %s killed during a scale-up to %d, %s leads%n",
            round, leader, replicas, next);
        awaitPods(admin, replicas);
      }
      int expected = PODSETS * replicas;
      Eventually.await("the watch to show every pod", () -> created.size() >= expected);

      List<Duration> sorted = new ArrayList<>(handovers);
      Collections.sort(sorted);
      String report =
          String.format(
              "=== Failover on kube-apiserver %s ===%n%d kills; lease %d s, renew deadline %d s,"
                  + " retry %d ms; handover (kill to the next holder seen): %s s; pods created %d"
                  + " for %d replicas in all%n",
              server.version(),
              ROUNDS,
              LEASE.toSeconds(),
              RENEW_DEADLINE.toSeconds(),
              RETRY.toMillis(),
              handovers.stream().map(d -> String.format("%.1f", d.toMillis() / 1000.0)).toList(),
              created.size(),
              expected);
      System.out.print(report);
      assertThat(created).as(report).hasSize(expected);
      assertThat(sorted.get(sorted.size() - 1)).as(report).isLessThan(HANDOVER_BOUND);
    }
  }

  private static Watcher<Pod> recordAdded(Set<String> created) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (action == Action.ADDED) {
          created.add(pod.getMetadata().getUid());
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /** Every PodSet has exactly {@code replicas} pods, and says so in its status. */
  private static void awaitPods(KubernetesClient admin, int replicas) {
    Eventually.await(
        "every PodSet at " + replicas + " pods",
        () -> podsPerPodSet(admin),
        counts ->
            counts.size() == PODSETS
                && counts.values().stream().allMatch(n -> n == replicas)
                && admin.resources(PodSet.class).inNamespace(NAMESPACE).list().getItems().stream()
                    .allMatch(p -> p.getStatus() != null && p.getStatus().replicas() == replicas));
  }

  private static Map<String, Long> podsPerPodSet(KubernetesClient admin) {
    return admin.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .collect(
            Collectors.groupingBy(
                p -> p.getMetadata().getOwnerReferences().get(0).getName(), Collectors.counting()));
  }

  /** The Lease's holder once it is someone other than {@code previous} (any holder if null). */
  private static String awaitHolder(KubernetesClient admin, String previous) {
    return Eventually.within(HANDOVER_BOUND.plusSeconds(15))
        .until(
            previous == null ? "a leader" : "a leader other than " + previous,
            () -> {
              Lease lease = admin.leases().inNamespace(NAMESPACE).withName("podset-operator").get();
              return lease == null ? null : lease.getSpec().getHolderIdentity();
            },
            holder -> holder != null && !holder.isEmpty() && !holder.equals(previous));
  }
}
