package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A profiling aid for benchmark 4 (on with {@code -Dlatency.stages=true} in {@code
 * CONTENDER_JAVA_OPTS}): the wall-clock time at which each stamped update passes each stage of a
 * contender's pipeline, and at the end, per stage, the percentiles of the time spent since the
 * previous stage, and how the slowest 1% of updates split their latency among the stages. Stage 0
 * is the driver's stamp; the last stage must be where the latency is recorded. The warm-up phase is
 * left out.
 *
 * <p>Thread-safe: each update's row is written by one thread per stage, and stages of one update
 * happen one after another.
 */
final class LatencyStages {

  private final List<String> names;
  private final Map<String, long[]> rows = new ConcurrentHashMap<>();

  /** Stages after the stamp, in pipeline order. */
  LatencyStages(List<String> names) {
    this.names = List.copyOf(names);
  }

  /** Whether the profiling aid is on for this JVM. */
  static boolean enabled() {
    return Boolean.getBoolean("latency.stages");
  }

  /** Records that {@code object}'s current stamp passed stage {@code stage} (1-based) now. */
  void passed(HasMetadata object, int stage) {
    Instant now = Instant.now();
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    String stamp = annotations == null ? null : annotations.get(LatencyRecorder.ANNOTATION);
    if (stamp == null || stamp.startsWith(LatencyServer.WARM + ":")) {
      return;
    }
    long[] row =
        rows.computeIfAbsent(
            stamp,
            s -> {
              long[] r = new long[names.size() + 1];
              r[0] = Long.parseLong(s.substring(s.indexOf(':') + 1));
              return r;
            });
    if (row[stage] == 0) {
      row[stage] = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
  }

  /** The summary lines, for standard error. */
  List<String> summary() {
    int last = names.size();
    List<long[]> complete = new ArrayList<>();
    for (long[] row : rows.values()) {
      boolean all = true;
      for (long t : row) {
        all &= t != 0;
      }
      if (all) {
        complete.add(row);
      }
    }
    List<String> lines = new ArrayList<>();
    int n = complete.size();
    lines.add("stages: " + n + " updates seen at every stage (of " + rows.size() + ")");
    if (n == 0) {
      return lines;
    }
    for (int s = 1; s <= last; s++) {
      long[] d = new long[n];
      for (int i = 0; i < n; i++) {
        d[i] = complete.get(i)[s] - complete.get(i)[s - 1];
      }
      Arrays.sort(d);
      lines.add(
          String.format(
              Locale.ROOT,
              "stage %-28s p50 %8.3f ms  p99 %8.3f ms  p999 %8.3f ms  max %8.3f ms",
              names.get(s - 1),
              LatencyRecorder.percentile(d, 0.50),
              LatencyRecorder.percentile(d, 0.99),
              LatencyRecorder.percentile(d, 0.999),
              d[n - 1] / 1000.0));
    }
    complete.sort((a, b) -> Long.compare(a[last] - a[0], b[last] - b[0]));
    int from = (int) Math.floor(n * 0.99);
    double[] share = new double[last + 1];
    for (int i = from; i < n; i++) {
      long[] row = complete.get(i);
      for (int s = 1; s <= last; s++) {
        share[s] += (row[s] - row[s - 1]) / 1000.0;
      }
    }
    StringBuilder tail = new StringBuilder("slowest 1% (" + (n - from) + "), mean ms per stage:");
    for (int s = 1; s <= last; s++) {
      tail.append(String.format(Locale.ROOT, " %s=%.2f", names.get(s - 1), share[s] / (n - from)));
    }
    lines.add(tail.toString());
    // When the slowest were sent (wall clock), to line them up with GC logs and the like.
    StringBuilder when = new StringBuilder("slowest 1% sent at (epoch ms, first..last):");
    long earliest = Long.MAX_VALUE;
    long latest = Long.MIN_VALUE;
    for (int i = from; i < n; i++) {
      earliest = Math.min(earliest, complete.get(i)[0]);
      latest = Math.max(latest, complete.get(i)[0]);
    }
    when.append(' ').append(earliest / 1000).append("..").append(latest / 1000);
    lines.add(when.toString());
    return lines;
  }
}
