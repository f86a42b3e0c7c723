package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Failover: two operator instances with leader election; the leader is, in turn, partitioned from
 * the Lease (its Lease requests answer 503 while its other requests go through, so it keeps
 * reconciling until its fence drops) or killed abruptly (and replaced by a fresh instance), while
 * PodSets keep being scaled. Checks every state with {@link PodSetInvariants}, and from the request
 * journal that no instance's write succeeded after its renew deadline nor while another instance
 * held the Lease. Prints the handover times.
 */
class FailoverIT {

  static final int PODSETS = 8;
  static final int CI_ROUNDS = 4;
  static final int LONG_ROUNDS = 16;

  static final Duration LEASE = Duration.ofSeconds(4);
  static final Duration RENEW_DEADLINE = Duration.ofSeconds(3);
  static final Duration RETRY = Duration.ofMillis(500);

  /**
   * A write that passed the fence just before the deadline still travels to the server: allowed
   * lateness of its arrival over the deadline (the deadline is measured from the arrival of the
   * renewal's first request, itself later than when the instance started it).
   */
  static final Duration TRANSIT = Duration.ofMillis(250);

  /** How long the followers may take to take over (lease duration, retry period, jitter). */
  static final Duration HANDOVER_BOUND = Duration.ofSeconds(15);

  static final Duration CONVERGENCE_BOUND = Duration.ofSeconds(90);

  private final long seed = Long.getLong("chaos.seed", System.nanoTime());
  private ReliabilityCluster cluster;
  private final List<OperatorInstance> live = new ArrayList<>();
  private final List<OperatorInstance> all = new ArrayList<>();
  private Random random;
  private int names;

  @AfterEach
  void stop() {
    for (OperatorInstance instance : live) {
      instance.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private OperatorInstance startInstance() {
    String name = "fo-" + (char) ('a' + names++);
    LeaderElectionConfig election =
        LeaderElectionConfig.of(cluster.namespace, "podset-operator", name)
            .withTimings(LEASE, RENEW_DEADLINE, RETRY)
            .withOnLoss(LeaderElectionConfig.OnLoss.CAMPAIGN_AGAIN);
    OperatorInstance instance = cluster.startOperator(name, election, 2);
    cluster.view.track(instance);
    live.add(instance);
    all.add(instance);
    return instance;
  }

  @Test
  void leaderKilledOrPartitionedRepeatedly_invariantsHold_noWriteFromADeposedLeader() {
    cluster = new ReliabilityCluster("failover");
    run();
  }

  /**
   * The same on a real control plane (kube-apiserver, etcd, the controller manager's collector,
   * kube-scheduler and kwok nodes), the instances' requests going through a fault proxy: the
   * partition is the proxy answering the leader's Lease requests 503, the kill resets its
   * connections; the real Lease API's optimistic concurrency decides who leads.
   */
  @Test
  void onARealControlPlane_leaderKilledOrPartitioned_invariantsHold_noWriteFromADeposedLeader() {
    cluster = ReliabilityCluster.onRealControlPlane("failover");
    run();
  }

  private void run() {
    int rounds = Boolean.getBoolean("chaos.long") ? LONG_ROUNDS : CI_ROUNDS;
    System.out.println(
        "Failover on the "
            + cluster.target.description()
            + ": seed "
            + seed
            + " (repeat with -Dchaos.seed="
            + seed
            + ")");
    random = new Random(seed);
    startInstance();
    startInstance();
    for (int i = 0; i < PODSETS; i++) {
      cluster.createPodSet("ps-" + i, 1 + random.nextInt(5));
    }
    List<Duration> handovers = new ArrayList<>();
    List<String> kinds = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      OperatorInstance leader = awaitLeader(null);
      drive(Duration.ofSeconds(2));
      boolean partition = round % 2 == 0;
      Instant disrupted = Instant.now();
      FaultInjector.Handle cut = null;
      if (partition) {
        cut =
            cluster
                .target
                .faults()
                .add(
                    FaultRule.match()
                        .resource("leases")
                        .userAgentContaining(leader.userAgent())
                        .inject(Fault.serverError(503)));
      } else {
        leader.kill();
        cluster.view.untrack(leader);
        live.remove(leader);
        startInstance();
      }
      Instant acquired = awaitHandover(leader, disrupted);
      handovers.add(Duration.between(disrupted, acquired));
      kinds.add(partition ? "partition" : "kill");
      drive(Duration.ofSeconds(2)); // the deposed leader is still running and partitioned
      if (cut != null) {
        cut.remove();
      }
    }
    Duration convergence = cluster.awaitConverged(CONVERGENCE_BOUND);
    cluster.checkAll();

    Fencing fencing = fencing(cluster.journal().records());
    List<Duration> sorted = new ArrayList<>(handovers);
    Collections.sort(sorted);
    StringBuilder report =
        new StringBuilder("=== Failover report (" + cluster.target.description() + ") ===\n");
    report.append(
        String.format(
            "seed %d; %d rounds (%s); lease %d s, renew deadline %d s, retry %d ms%n",
            seed,
            rounds,
            String.join(", ", kinds),
            LEASE.toSeconds(),
            RENEW_DEADLINE.toSeconds(),
            RETRY.toMillis()));
    report.append(
        String.format(
            "handover (disruption to the next leader's Lease write): min %.1f s, median %.1f s,"
                + " max %.1f s; all %s%n",
            sorted.get(0).toMillis() / 1000.0,
            sorted.get(sorted.size() / 2).toMillis() / 1000.0,
            sorted.get(sorted.size() - 1).toMillis() / 1000.0,
            handovers.stream().map(d -> String.format("%.1f", d.toMillis() / 1000.0)).toList()));
    report.append(
        String.format(
            "writes checked: %d successful writes by %d instances; after the renew deadline: %d"
                + " (closest arrival to the deadline: %d ms before it); while another instance held"
                + " the Lease: %d%n",
            fencing.writes,
            all.size(),
            fencing.late.size(),
            -fencing.maxLatenessMillis,
            fencing.overlapping.size()));
    report.append(
        String.format(
            "invariants: %d states checked, %d violations; converged %.1f s after the last round%n",
            cluster.invariants.checks(),
            cluster.invariants.violationCount(),
            convergence.toMillis() / 1000.0));
    cluster
        .invariants
        .violations()
        .forEach(v -> report.append("VIOLATION ").append(v).append('\n'));
    fencing.late.forEach(v -> report.append("LATE ").append(v).append('\n'));
    fencing.overlapping.forEach(v -> report.append("OVERLAP ").append(v).append('\n'));
    System.out.print(report);

    assertThat(cluster.history.broken()).as("observer history").isNull();
    assertThat(cluster.invariants.violations()).as(report.toString()).isEmpty();
    assertThat(fencing.late).as(report.toString()).isEmpty();
    assertThat(fencing.overlapping).as(report.toString()).isEmpty();
    assertThat(fencing.writes).as("the leaders wrote").isPositive();
    assertThat(sorted.get(sorted.size() - 1)).as(report.toString()).isLessThan(HANDOVER_BOUND);
  }

  /** Scales random PodSets for a while, checking the observed states. */
  private void drive(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    while (System.nanoTime() - end < 0) {
      String name = "ps-" + random.nextInt(PODSETS);
      int replicas = random.nextInt(6);
      cluster
          .admin
          .resources(PodSet.class)
          .inNamespace(cluster.namespace)
          .withName(name)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + replicas + "}}");
      cluster.check();
      LockSupport.parkNanos(Duration.ofMillis(100 + random.nextInt(300)).toNanos());
    }
  }

  /**
   * Waits for the live instance that holds the Lease (per the server) and believes it leads,
   * driving changes meanwhile.
   */
  private OperatorInstance awaitLeader(OperatorInstance not) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      Lease lease =
          cluster.admin.leases().inNamespace(cluster.namespace).withName("podset-operator").get();
      String holder = lease == null ? null : lease.getSpec().getHolderIdentity();
      for (OperatorInstance instance : live) {
        if (instance != not && instance.name().equals(holder) && instance.manager().isLeader()) {
          return instance;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "no leader among " + live.stream().map(OperatorInstance::name).toList());
      }
      drive(Duration.ofMillis(200));
    }
  }

  /**
   * Waits for the first successful Lease write after {@code disrupted} by an instance other than
   * {@code old} (the handover), driving changes meanwhile.
   *
   * @return when it arrived
   */
  private Instant awaitHandover(OperatorInstance old, Instant disrupted) {
    long deadline = System.nanoTime() + HANDOVER_BOUND.multipliedBy(2).toNanos();
    while (true) {
      for (RequestRecord r : cluster.journal().records()) {
        if (isLeaseWrite(r)
            && r.time().isAfter(disrupted)
            && r.userAgent() != null
            && r.userAgent().startsWith(OperatorInstance.USER_AGENT_PREFIX)
            && !isFrom(r, old)) {
          return r.time();
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("no handover from " + old.name());
      }
      drive(Duration.ofMillis(200));
    }
  }

  private static boolean isLeaseWrite(RequestRecord r) {
    return "leases".equals(r.resource()) && r.isWrite() && r.status() < 300;
  }

  private static boolean isFrom(RequestRecord r, OperatorInstance instance) {
    return r.userAgent() != null && r.userAgent().contains(instance.userAgent());
  }

  /** What the journal says about fencing. */
  private static final class Fencing {
    long writes;
    long maxLatenessMillis = Long.MIN_VALUE;
    final List<String> late = new ArrayList<>();
    final List<String> overlapping = new ArrayList<>();
  }

  /**
   * Replays the journal: an instance's term is renewed by each successful Lease write, from the
   * arrival of the Lease read that began that renewal (the instance's own clock starts earlier, so
   * this deadline is if anything late); its other successful writes must arrive before the deadline
   * plus {@link #TRANSIT}, and while it is the holder of the latest successful Lease write.
   */
  private Fencing fencing(List<RequestRecord> journal) {
    Fencing result = new Fencing();
    Map<String, Instant> lastLeaseRead = new HashMap<>();
    Map<String, Instant> deadline = new HashMap<>();
    String holder = null;
    List<RequestRecord> byArrival = new ArrayList<>(journal);
    byArrival.sort(java.util.Comparator.comparing(RequestRecord::time));
    for (RequestRecord r : byArrival) {
      String agent = r.userAgent();
      if (agent == null || !agent.startsWith(OperatorInstance.USER_AGENT_PREFIX)) {
        continue;
      }
      if ("leases".equals(r.resource())) {
        if (r.verb().equals("get") && r.status() == 200) {
          lastLeaseRead.put(agent, r.time());
        } else if (isLeaseWrite(r)) {
          Instant anchor = lastLeaseRead.getOrDefault(agent, r.time());
          deadline.put(agent, anchor.plus(RENEW_DEADLINE));
          holder = agent;
        }
        continue;
      }
      if (!r.isWrite() || r.status() >= 300) {
        continue;
      }
      result.writes++;
      Instant until = deadline.get(agent);
      if (until == null) {
        result.late.add(r + " by " + agent + ", which never held the Lease");
        continue;
      }
      long lateness = Duration.between(until, r.time()).toMillis();
      result.maxLatenessMillis = Math.max(result.maxLatenessMillis, lateness);
      if (lateness > TRANSIT.toMillis()) {
        result.late.add(r + " by " + agent + " arrived " + lateness + " ms after its deadline");
      }
      if (!agent.equals(holder)) {
        result.overlapping.add(r + " by " + agent + " while " + holder + " held the Lease");
      }
    }
    return result;
  }
}
