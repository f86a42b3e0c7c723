package io.podset.benchmarks.operator;

import io.podset.testkit.Eventually;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/** One phase of a {@link ClusterConverge} run: its wall time, CPU per process and audit marks. */
record Phase(
    String name,
    Duration wall,
    ClusterProcesses.Sample before,
    ClusterProcesses.Sample after,
    Path auditLog,
    AuditCounts.Mark auditBefore,
    AuditCounts.Mark auditAfter) {

  /**
   * How long the contender's request count must stay the same for its requests of a phase to be all
   * in the log: more than the audit backend's batch wait ({@link #AUDIT_BATCH_WAIT}).
   */
  static final Duration SETTLED_FOR = Duration.ofSeconds(3);

  /** The audit log's {@code --audit-log-batch-max-wait}: a batch is written at least this often. */
  static final Duration AUDIT_BATCH_WAIT = Duration.ofSeconds(1);

  /** The phase that ran from {@code startNanos} to {@code endNanos}, sampled now. */
  static Phase of(
      String name,
      ClusterProcesses.Sample before,
      AuditCounts.Mark auditBefore,
      ClusterProcesses.Operator operator,
      Path auditLog,
      AuditCounts.Counter contender,
      long startNanos,
      long endNanos) {
    awaitSettled(contender);
    return new Phase(
        name,
        Duration.ofNanos(endNanos - startNanos),
        before,
        ClusterProcesses.sample(operator),
        auditLog,
        auditBefore,
        AuditCounts.mark(auditLog));
  }

  /**
   * Waits until the contender's request count in the audit log has stayed the same for {@link
   * #SETTLED_FOR}.
   */
  static void awaitSettled(AuditCounts.Counter contender) {
    // The audit backend writes in batches: wait until the contender's request count has stayed
    // the same for longer than a batch waits, so the phase's last requests are counted. Only the
    // contender's: the cluster never falls silent (kwok's node leases and heartbeats, the
    // scheduler's and controller manager's leases and the garbage collector's work go on), and a
    // wait for the whole log to stop growing timed out at N=300 while the garbage collector, at
    // the controller manager's default 20 requests/s, was still checking the new pods' owners
    // (and could return at once: Eventually's first polls come microseconds apart, before a
    // batch lands). So the quiet time is measured, not the number of polls.
    AtomicLong last = new AtomicLong(-1);
    AtomicLong since = new AtomicLong(System.nanoTime());
    Eventually.within(Duration.ofMinutes(2))
        .polling(Duration.ofMillis(500))
        .until(
            "the contender's requests in the audit log to settle",
            contender::requests,
            requests -> {
              long now = System.nanoTime();
              if (last.getAndSet(requests) != requests) {
                since.set(now);
                return false;
              }
              return now - since.get() >= SETTLED_FOR.toNanos();
            });
  }

  /**
   * A Markdown row: contender | N | phase | wall s (and to all created) | contender CPU s |
   * apiserver CPU s | etcd CPU s | API calls | validity.
   */
  String row(
      String contender, int n, AuditCounts.Counter counter, Duration toCreated, String validity) {
    Map<String, Duration> cpu = after.since(before);
    String contenderProcess = contender.startsWith("ours") ? "operator" : "kube-controller-manager";
    Map<String, Integer> calls = counter.between(auditBefore, auditAfter);
    int total = calls.values().stream().mapToInt(Integer::intValue).sum();
    String detail =
        calls.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
    return String.format(
        "| %s | %d | %s | %.2f%s | %.2f | %.2f | %.2f | %d (%s) | %s |",
        contender,
        n,
        name,
        wall.toMillis() / 1000.0,
        toCreated == null ? "" : String.format(" (created %.2f)", toCreated.toMillis() / 1000.0),
        seconds(cpu.get(contenderProcess)),
        seconds(cpu.get("kube-apiserver")),
        seconds(cpu.get("etcd")),
        total,
        detail,
        validity);
  }

  private static double seconds(Duration d) {
    return d == null ? Double.NaN : d.toMillis() / 1000.0;
  }
}
