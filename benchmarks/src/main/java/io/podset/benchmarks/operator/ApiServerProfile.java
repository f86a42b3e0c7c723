package io.podset.benchmarks.operator;

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

  private final Process kubectl;
  private final Path file;

  private ApiServerProfile(Process kubectl, Path file) {
    this.kubectl = kubectl;
    this.file = file;
  }

  /** The profile's length from {@code CLUSTER_PPROF}, or null when none is asked for. */
  static Duration requested() {
    String seconds = System.getenv("CLUSTER_PPROF");
    return seconds == null || seconds.isBlank()
        ? null
        : Duration.ofSeconds(io.podset.benchmarks.Args.positive("CLUSTER_PPROF", seconds));
  }

  /** Starts profiling now for {@code length}; the profile lands in {@code dir/<name>.pprof}. */
  static ApiServerProfile start(SimulatedCluster cluster, Path dir, String name, Duration length)
      throws IOException {
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("admin.kubeconfig"));
    Path file = dir.resolve(name + ".pprof");
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
            .redirectError(dir.resolve(name + ".pprof.err").toFile())
            .start();
    return new ApiServerProfile(kubectl, file);
  }

  /** Waits for the profile to be written (the cluster must still run). */
  @Override
  public void close() throws InterruptedException {
    if (!kubectl.waitFor(2, TimeUnit.MINUTES)) {
      kubectl.destroyForcibly();
    }
    System.err.println(
        "kube-apiserver profile (kubectl exit " + kubectl.exitValue() + "): " + file);
  }
}
