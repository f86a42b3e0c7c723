package io.podset.benchmarks.operator;

import io.podset.benchmarks.Args;
import io.podset.testkit.envtest.SimulatedCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A CPU profile of the cluster's kube-apiserver from the first create on (for as long as asked: the
 * three phases take about 45 s at N=300), taken with {@code kubectl get --raw /debug/pprof/profile}
 * as the admin (profiling is on by default), for {@code go tool pprof}: where the server spends the
 * CPU a contender costs it. Enabled by {@code CLUSTER_PPROF=<seconds>} with {@code CLUSTER_KEEP},
 * which keeps the file in the run's directory.
 */
final class ApiServerProfile implements AutoCloseable {

  /** How long past the profile's end its download may take. */
  private static final Duration DOWNLOAD = Duration.ofSeconds(30);

  private final Process kubectl;
  private final Path file;
  private final Path errors;
  private final long deadlineNanos;

  private ApiServerProfile(Process kubectl, Path file, Path errors, Duration length) {
    this.kubectl = kubectl;
    this.file = file;
    this.errors = errors;
    this.deadlineNanos = System.nanoTime() + length.plus(DOWNLOAD).toNanos();
  }

  /**
   * The profile's length from {@code CLUSTER_PPROF}, or null when none is asked for; one without
   * {@code CLUSTER_KEEP} is refused, as its file would be deleted with the run's directory.
   */
  static Duration requested() {
    String seconds = System.getenv("CLUSTER_PPROF");
    if (seconds == null || seconds.isBlank()) {
      return null;
    }
    Duration length = Duration.ofSeconds(Args.positive("CLUSTER_PPROF", seconds));
    ClusterConverge.requireKept("CLUSTER_PPROF", seconds);
    return length;
  }

  /** Starts profiling now for {@code length}; the profile lands in {@code dir/<name>.pprof}. */
  static ApiServerProfile start(SimulatedCluster cluster, Path dir, String name, Duration length)
      throws IOException {
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("admin.kubeconfig"));
    Path file = dir.resolve(name + ".pprof");
    Path errors = dir.resolve(name + ".pprof.err");
    Process kubectl =
        new ProcessBuilder(
                "kubectl",
                "--kubeconfig",
                kubeconfig.toString(),
                "--request-timeout=0",
                "get",
                "--raw",
                "/debug/pprof/profile?seconds=" + length.toSeconds())
            .redirectOutput(file.toFile())
            .redirectError(errors.toFile())
            .start();
    return new ApiServerProfile(kubectl, file, errors, length);
  }

  /**
   * Waits for the profile to be written (the cluster must still run), at most until its length and
   * the download's time are over.
   */
  @Override
  public void close() throws InterruptedException {
    long left = Math.max(0, deadlineNanos - System.nanoTime());
    if (!kubectl.waitFor(left, TimeUnit.NANOSECONDS)) {
      kubectl.destroyForcibly().waitFor();
      System.err.println("kube-apiserver profile not written in time; see " + errors);
    } else if (kubectl.exitValue() != 0) {
      System.err.println(
          "kube-apiserver profile failed (kubectl exit "
              + kubectl.exitValue()
              + "); see "
              + errors);
    } else {
      System.err.println("kube-apiserver profile: " + file);
    }
  }
}
