package io.podset.benchmarks.operator;

import io.podset.benchmarks.Args;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code perf record -g} of our operator's JVM through the three phases, then its samples by
 * phase, thread kind and category ({@link PerfCategories}) in {@code operator-perf.md}: where the
 * operator's CPU goes, native and kernel frames included (the syscalls of the event loop, the
 * collector, the JIT), which a flight recording does not see. Enabled by {@code CLUSTER_PERF=<Hz>}
 * with {@code CLUSTER_KEEP}; needs {@code perf} on the PATH and the right to profile the JVM.
 *
 * <p>The JVM keeps frame pointers and writes the map of its compiled code at exit ({@code
 * /tmp/perf-<pid>.map}, which {@code perf script} reads), so the report is made once the operator
 * has exited. Samples are timed with CLOCK_MONOTONIC, the clock of {@link System#nanoTime}, so the
 * phases cut them exactly.
 */
final class OperatorPerf {

  /** How long perf may take to write its file once told to stop. */
  private static final long STOP_SECONDS = 60;

  private final Process perf;
  private final Path data;
  private final Path errors;
  private final int hz;

  private OperatorPerf(Process perf, Path data, Path errors, int hz) {
    this.perf = perf;
    this.data = data;
    this.errors = errors;
    this.hz = hz;
  }

  /**
   * The sampling rate from {@code CLUSTER_PERF}, or 0 when none is asked for; refused without
   * {@code CLUSTER_KEEP} (the report would be deleted with the run's directory) or without perf.
   */
  static int requested() throws IOException, InterruptedException {
    String value = System.getenv("CLUSTER_PERF");
    if (value == null || value.isBlank()) {
      return 0;
    }
    int hz = Args.positive("CLUSTER_PERF (samples per second)", value);
    ClusterConverge.requireKept("CLUSTER_PERF", value);
    Process version;
    try {
      version =
          new ProcessBuilder("perf", "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      throw new IllegalArgumentException("CLUSTER_PERF=" + value + " needs perf on the PATH", e);
    }
    if (version.waitFor() != 0) {
      throw new IllegalArgumentException(
          "CLUSTER_PERF=" + value + ": perf --version exited " + version.exitValue());
    }
    return hz;
  }

  /** The operator JVM's options a profile needs: frame pointers, the code map at exit. */
  static List<String> jvmOptions() {
    return List.of(
        "-XX:+PreserveFramePointer", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit");
  }

  /** Starts sampling {@code pid} at {@code hz} into {@code dir/operator.perf.data}. */
  static OperatorPerf start(long pid, Path dir, int hz) throws IOException {
    Path data = dir.resolve("operator.perf.data");
    Path errors = dir.resolve("operator.perf.err");
    Process perf =
        new ProcessBuilder(
                "perf",
                "record",
                "-F",
                Integer.toString(hz),
                "-g",
                "-k",
                "CLOCK_MONOTONIC",
                "-p",
                Long.toString(pid),
                "-o",
                data.toString())
            .redirectErrorStream(true)
            .redirectOutput(errors.toFile())
            .start();
    return new OperatorPerf(perf, data, errors, hz);
  }

  /** Stops sampling (perf writes its file on SIGTERM). */
  void stop() throws InterruptedException {
    perf.destroy();
    if (!perf.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
      perf.destroyForcibly().waitFor();
      System.err.println("perf did not stop in time; see " + errors);
    }
  }

  /**
   * Writes {@code dir/operator-perf.md} from the recording, cut by {@code phases}; call once the
   * operator exited (its code map is written at exit).
   */
  void report(Path dir, List<PerfCategories.Window> phases)
      throws IOException, InterruptedException {
    if (!Files.exists(data)) {
      System.err.println("no perf recording; see " + errors);
      return;
    }
    Process script =
        new ProcessBuilder(
                "perf", "script", "-i", data.toString(), "-F", "comm,tid,time,ip,sym,dso")
            .redirectError(dir.resolve("operator.perf-script.err").toFile())
            .start();
    PerfCategories categories;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
      categories = PerfCategories.read(in, phases);
    }
    if (script.waitFor() != 0) {
      System.err.println(
          "perf script exited " + script.exitValue() + "; the report may be partial");
    }
    Path report = dir.resolve("operator-perf.md");
    Files.writeString(
        report,
        "# The operator JVM's CPU by phase, thread kind and category (perf, "
            + hz
            + " Hz)\n\n"
            + "Read: a sample counts for the leaf-most frame of our code or of a library; JDK and"
            + " native frames count for their caller; samples with none are the JVM's own.\n\n"
            + categories.markdown(hz, 4));
    System.err.println("operator perf report: " + report);
  }
}
