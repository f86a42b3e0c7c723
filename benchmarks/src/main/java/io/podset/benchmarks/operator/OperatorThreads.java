package io.podset.benchmarks.operator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where our operator JVM's CPU went in each phase of a {@link ClusterConverge} run, by thread kind
 * ({@link ThreadCpu}): the JIT compilers, the collector, the HTTP client's event loops, informers,
 * workers; how much of it came after the phase's condition was met, in the audit settle that the
 * phase's figures include; and the pod watch events of the phase ({@link PodEventCounts}). Kept
 * with the run's directory ({@code CLUSTER_KEEP}) as {@code operator-threads.md}, with each phase's
 * start and end (wall clock, to cut a flight recording by phase). Does nothing for a contender that
 * is not ours.
 */
final class OperatorThreads implements AutoCloseable {

  private final ClusterProcesses.Operator operator;
  private final ThreadCpu cpu;
  private final List<String> lines = new ArrayList<>();
  // The snapshot at the end of the last phase recorded; the operator's CPU when this phase's
  // condition was met (before the audit settle).
  private ThreadCpu.Snapshot last;
  private Duration atEnd;
  private final PodEventCounts events;
  private PodEventCounts.Counts lastEvents;

  private OperatorThreads(
      ClusterProcesses.Operator operator,
      ThreadCpu cpu,
      ThreadCpu.Snapshot first,
      PodEventCounts events) {
    this.operator = operator;
    this.cpu = cpu;
    this.last = first;
    this.events = events;
    this.lastEvents = events.now();
  }

  /** Starts following the operator's threads (null: not ours, nothing to follow). */
  static OperatorThreads start(
      ClusterProcesses.Operator operator, ClusterProcesses.Sample before, PodEventCounts events) {
    if (operator == null) {
      return new OperatorThreads(null, null, null, events);
    }
    ThreadCpu cpu = ThreadCpu.of(operator.process().toHandle());
    return new OperatorThreads(operator, cpu, cpu.snapshot(before.cpu().get("operator")), events);
  }

  /** The phase's condition was just met: notes the operator's CPU before the audit settle. */
  void ended() {
    if (cpu != null) {
      atEnd = ClusterProcesses.sample(operator).cpu().get("operator");
    }
  }

  /** Records {@code phase}, which started at {@code startNanos} and was sampled just now. */
  void phase(Phase phase, long startNanos) {
    if (cpu == null) {
      return;
    }
    ThreadCpu.Snapshot now = cpu.snapshot(phase.after().cpu().get("operator"));
    Instant end = Instant.now();
    Instant start = end.minusNanos(System.nanoTime() - startNanos);
    lines.add(
        String.format(
            "## %s: %s to %s (condition met %s, then the audit settle); operator CPU %.2f s"
                + " (%.2f s of it until the condition was met)",
            phase.name(),
            start,
            end,
            start.plus(phase.wall()),
            now.process().minus(last.process()).toMillis() / 1000.0,
            atEnd == null ? Double.NaN : atEnd.minus(last.process()).toMillis() / 1000.0));
    threadLines(now);
  }

  /** Records a round of work outside the phases (the warm-up), from {@code startNanos} to now. */
  void round(String name, long startNanos) {
    if (cpu == null) {
      return;
    }
    ThreadCpu.Snapshot now = cpu.snapshot(ClusterProcesses.sample(operator).cpu().get("operator"));
    Instant end = Instant.now();
    lines.add(
        String.format(
            "## %s: %s to %s; operator CPU %.2f s",
            name,
            end.minusNanos(System.nanoTime() - startNanos),
            end,
            now.process().minus(last.process()).toMillis() / 1000.0));
    threadLines(now);
  }

  private void threadLines(ThreadCpu.Snapshot now) {
    PodEventCounts.Counts counts = events.now();
    lines.add("");
    lines.add(counts.since(lastEvents) + " (seen by the benchmark's own pod informer)");
    lastEvents = counts;
    lines.add("");
    lines.add("| thread kind | CPU s |");
    lines.add("| --- | ---: |");
    for (Map.Entry<String, Duration> group : ThreadCpu.groupsSince(last, now).entrySet()) {
      if (!group.getValue().isZero()) {
        lines.add(
            String.format("| %s | %.2f |", group.getKey(), group.getValue().toMillis() / 1000.0));
      }
    }
    lines.add("");
    last = now;
  }

  void write(Path file) throws IOException {
    if (cpu != null) {
      Files.write(file, lines);
    }
  }

  @Override
  public void close() {
    if (cpu != null) {
      cpu.close();
    }
  }
}
