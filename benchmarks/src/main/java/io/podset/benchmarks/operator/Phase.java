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

  /** The phase that ran from {@code startNanos} to {@code endNanos}, sampled now. */
  static Phase of(
      String name,
      ClusterProcesses.Sample before,
      AuditCounts.Mark auditBefore,
      ClusterProcesses.Operator operator,
      Path auditLog,
      long startNanos,
      long endNanos) {
    // The audit backend writes in batches: wait until the log stops growing (two reads half a
    // second apart agree) so the phase's last requests are counted.
    AtomicLong last = new AtomicLong(-1);
    Eventually.within(Duration.ofSeconds(30))
        .polling(Duration.ofMillis(500))
        .until(
            "the audit log to settle",
            () -> AuditCounts.mark(auditLog).lines(),
            lines -> last.getAndSet(lines) == lines);
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
   * A Markdown row: contender | N | phase | wall s (and to all created) | contender CPU s |
   * apiserver CPU s | etcd CPU s | API calls | validity.
   */
  String row(
      String contender, int n, AuditCounts.Counter counter, Duration toCreated, String validity) {
    Map<String, Duration> cpu = after.since(before);
    String contenderProcess = contender.equals("ours") ? "operator" : "kube-controller-manager";
    Map<String, Integer> calls = counter.between(auditLog, auditBefore, auditAfter);
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
