package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.benchmarks.report.ResultLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Benchmark 4's measurement, shared by every contender: called where a reconcile (or a handler)
 * starts, with the object it sees, it takes the driver's stamp {@value #ANNOTATION} ({@code
 * <phase>:<epoch microseconds>}, written just before the update was sent) and records now minus the
 * stamp under the phase. A stamp is counted once per object; coalesced updates count only their
 * newest stamp, as the reconcile sees only that one.
 *
 * <p>Thread-safe: one lock guards the samples.
 */
final class LatencyRecorder {

  /** The annotation the driver stamps each update with. */
  static final String ANNOTATION = "bench.podset.io/sent";

  private final Map<String, String> lastStamp = new ConcurrentHashMap<>();

  /** Guarded by {@code this}: latencies in microseconds per phase label. */
  private final Map<String, long[]> samples = new TreeMap<>();

  /** Guarded by {@code this}: how many of each phase's array are used. */
  private final Map<String, Integer> counts = new TreeMap<>();

  /** The stamp of an update as the driver writes it. */
  static String stamp(String phase, Instant sent) {
    return phase + ":" + (sent.getEpochSecond() * 1_000_000 + sent.getNano() / 1_000);
  }

  /** Records the latency of {@code object}'s stamp, if it has a new one. */
  void seen(HasMetadata object) {
    Instant now = Instant.now();
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    String stamp = annotations == null ? null : annotations.get(ANNOTATION);
    if (stamp == null) {
      return;
    }
    String key = object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    if (stamp.equals(lastStamp.put(key, stamp))) {
      return;
    }
    int colon = stamp.indexOf(':');
    String phase = stamp.substring(0, colon);
    long sentMicros = Long.parseLong(stamp.substring(colon + 1));
    long nowMicros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    add(phase, nowMicros - sentMicros);
  }

  private synchronized void add(String phase, long micros) {
    long[] values = samples.computeIfAbsent(phase, p -> new long[1024]);
    int n = counts.getOrDefault(phase, 0);
    if (n == values.length) {
      values = Arrays.copyOf(values, n * 2);
      samples.put(phase, values);
    }
    values[n] = micros;
    counts.put(phase, n + 1);
  }

  /**
   * The figures {@code operator.latency_p50|p99|p999.<phase>} (ms) for {@code contender}, and a
   * summary line per phase for standard error.
   */
  synchronized List<String> results(String contender, List<String> summaries) {
    Objects.requireNonNull(summaries, "summaries");
    List<String> lines = new ArrayList<>();
    for (var entry : samples.entrySet()) {
      String phase = entry.getKey();
      int n = counts.get(phase);
      long[] sorted = Arrays.copyOf(entry.getValue(), n);
      Arrays.sort(sorted);
      double p50 = percentile(sorted, 0.50);
      double p99 = percentile(sorted, 0.99);
      double p999 = percentile(sorted, 0.999);
      lines.add(new ResultLine("operator.latency_p50." + phase, contender, p50, "ms").format());
      lines.add(new ResultLine("operator.latency_p99." + phase, contender, p99, "ms").format());
      lines.add(new ResultLine("operator.latency_p999." + phase, contender, p999, "ms").format());
      summaries.add(
          String.format(
              java.util.Locale.ROOT,
              "%s %s: %d samples, p50 %.2f ms, p99 %.2f ms, p999 %.2f ms, max %.2f ms",
              contender,
              phase,
              n,
              p50,
              p99,
              p999,
              sorted[n - 1] / 1000.0));
    }
    return lines;
  }

  /** The nearest-rank percentile in milliseconds. */
  static double percentile(long[] sortedMicros, double q) {
    int rank = (int) Math.ceil(q * sortedMicros.length);
    return sortedMicros[Math.max(0, rank - 1)] / 1000.0;
  }
}
