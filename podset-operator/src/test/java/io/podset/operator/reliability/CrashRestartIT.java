package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Crash and restart: an operator instance scaling PodSets towards {@value #TOTAL} pods is killed
 * without a graceful shutdown (connections reset, no drain, no Lease release) half-way; a fresh
 * instance takes the Lease once it expires and finishes the work. Every state is checked by {@link
 * PodSetInvariants}; since nothing is ever scaled down, a duplicate pod anywhere breaks the
 * no-surplus invariant, and the pods ever created must number exactly {@value #TOTAL}.
 */
class CrashRestartIT {

  static final int PODSETS = 4;
  static final int TOTAL = 1000;

  /** The kill comes once this many pods exist. */
  static final int KILL_AT = 400;

  static final Duration LEASE = Duration.ofSeconds(4);
  static final Duration RENEW_DEADLINE = Duration.ofSeconds(3);
  static final Duration RETRY = Duration.ofMillis(500);

  /** The promise: converged this long after the fresh instance starts. */
  static final Duration CONVERGENCE_BOUND = Duration.ofSeconds(120);

  private ReliabilityCluster cluster;
  private OperatorInstance first;
  private OperatorInstance second;

  @AfterEach
  void stop() {
    if (second != null) {
      second.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private LeaderElectionConfig election(String identity) {
    return LeaderElectionConfig.of(cluster.namespace, "podset-operator", identity)
        .withTimings(LEASE, RENEW_DEADLINE, RETRY);
  }

  @Test
  void killedMidScale_freshInstanceTakesOver_withoutDuplicates() {
    cluster = new ReliabilityCluster("crash");
    first = OperatorInstance.start(cluster.server, "crash-a", election("crash-a"), 2);
    cluster.view.track(first);
    for (int i = 0; i < PODSETS; i++) {
      cluster.createPodSet("big-" + i, TOTAL / PODSETS);
    }
    Instant started = Instant.now();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (cluster.invariants.podCount() < KILL_AT) {
      assertThat(System.nanoTime() - deadline).as("pods being created").isNegative();
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      cluster.check();
    }
    Instant killed = Instant.now();
    first.kill();
    cluster.view.untrack(first);
    long podsAtKill = cluster.server.client().pods().inNamespace("crash").list().getItems().size();
    Duration scaling = Duration.between(started, killed);

    second = OperatorInstance.start(cluster.server, "crash-b", election("crash-b"), 2);
    cluster.view.track(second);
    Duration convergence = cluster.awaitConverged(CONVERGENCE_BOUND);
    cluster.history.awaitComplete(cluster.server.resourceVersion(), Duration.ofSeconds(10));
    cluster.check();

    List<RequestRecord> journal = cluster.server.journal().records();
    Instant takeover =
        journal.stream()
            .filter(
                r ->
                    r.userAgent() != null
                        && r.userAgent().contains(second.userAgent())
                        && "leases".equals(r.resource())
                        && r.isWrite()
                        && r.status() < 300)
            .map(RequestRecord::time)
            .findFirst()
            .orElseThrow(() -> new AssertionError("the fresh instance never took the Lease"));
    Instant lastOfFirst =
        journal.stream()
            .filter(r -> r.userAgent() != null && r.userAgent().contains(first.userAgent()))
            .map(RequestRecord::time)
            .reduce((a, b) -> b)
            .orElseThrow();
    long podCreates =
        cluster.server.journal().count(RequestMatcher.verb("create").resource("pods").status(201));
    long createsBySecond =
        cluster
            .server
            .journal()
            .count(
                RequestMatcher.verb("create")
                    .resource("pods")
                    .status(201)
                    .userAgentContaining(second.userAgent()));

    StringBuilder report = new StringBuilder("=== Crash-restart report ===\n");
    report.append(
        String.format(
            "%d PodSets x %d replicas; killed after %.1f s with %d pods (first instance's last"
                + " request arrived %d ms after the kill)%n",
            PODSETS,
            TOTAL / PODSETS,
            scaling.toMillis() / 1000.0,
            podsAtKill,
            Duration.between(killed, lastOfFirst).toMillis()));
    report.append(
        String.format(
            "fresh instance took the Lease %.1f s after the kill (lease %d s, no release);"
                + " converged %.1f s after its start (bound %d s)%n",
            Duration.between(killed, takeover).toMillis() / 1000.0,
            LEASE.toSeconds(),
            convergence.toMillis() / 1000.0,
            CONVERGENCE_BOUND.toSeconds()));
    report.append(
        String.format(
            "pods created: %d (first instance %d, fresh instance %d), pods ever seen %d, at the end"
                + " %d; invariants: %d states checked, %d violations%n",
            podCreates,
            podCreates - createsBySecond,
            createsBySecond,
            cluster.invariants.podsCreated(),
            cluster.invariants.podCount(),
            cluster.invariants.checks(),
            cluster.invariants.violationCount()));
    cluster
        .invariants
        .violations()
        .forEach(v -> report.append("VIOLATION ").append(v).append('\n'));
    System.out.print(report);

    assertThat(cluster.history.broken()).as("observer history").isNull();
    assertThat(cluster.invariants.violations()).as(report.toString()).isEmpty();
    assertThat(cluster.invariants.podsCreated())
        .as("pods ever created\n" + report)
        .isEqualTo(TOTAL);
    assertThat(podCreates).as("successful pod creates\n" + report).isEqualTo(TOTAL);
    assertThat(podsAtKill).as("killed mid-way\n" + report).isLessThan(TOTAL);
    assertThat(takeover).as("no Lease release: the fresh instance waited").isAfter(killed);
  }
}
