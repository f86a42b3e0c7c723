package io.podset.benchmarks.operator;

import io.podset.testkit.envtest.SimulatedCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes of a {@link ClusterConverge} run: the cluster's (children of this JVM), our
 * operator's JVM when it is the contender, and the machine's load.
 */
final class ClusterProcesses {

  /** A 1-minute load average above this on 2 cores means others used the machine. */
  static final double IDLE_LOAD = 1.5;

  private static final List<String> NAMES =
      List.of("kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler", "kwok");

  private ClusterProcesses() {}

  /** CPU time so far of each process, by name ({@code operator} for ours). */
  record Sample(Map<String, Duration> cpu) {
    Map<String, Duration> since(Sample start) {
      Map<String, Duration> spent = new LinkedHashMap<>();
      cpu.forEach(
          (name, total) ->
              spent.put(name, total.minus(start.cpu.getOrDefault(name, Duration.ZERO))));
      return spent;
    }
  }

  /** Our operator's jar main in its own JVM, as a user runs it (admin kubeconfig, defaults). */
  record Operator(Process process, Path log) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor();
    }
  }

  static Sample sample(Operator operator) {
    Map<String, Duration> cpu = new LinkedHashMap<>();
    ProcessHandle.current()
        .children()
        .forEach(
            child -> {
              String command = child.info().command().orElse("");
              String name =
                  Path.of(command).getFileName() == null
                      ? ""
                      : Path.of(command).getFileName().toString();
              if (NAMES.contains(name)) {
                cpu.merge(
                    name, child.info().totalCpuDuration().orElse(Duration.ZERO), Duration::plus);
              }
            });
    if (operator != null) {
      cpu.put("operator", operator.process().info().totalCpuDuration().orElse(Duration.ZERO));
    }
    return new Sample(cpu);
  }

  static Operator startOperator(SimulatedCluster cluster, Path dir) throws IOException {
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("operator.kubeconfig"));
    int healthPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      healthPort = socket.getLocalPort();
    }
    Path log = dir.resolve("operator.log");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.podset.operator.cli.Main",
                "--kubeconfig=" + kubeconfig,
                "--health-port=" + healthPort,
                "--metrics-port=0")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Operator operator = new Operator(process, log);
    HttpClient http = HttpClient.newHttpClient();
    URI readyz = URI.create("http://127.0.0.1:" + healthPort + "/readyz");
    ClusterConverge.await(
        "the operator ready",
        () -> {
          if (!process.isAlive()) {
            throw new IllegalStateException("the operator exited; see " + log);
          }
          try {
            return http.send(
                        HttpRequest.newBuilder(readyz).build(),
                        HttpResponse.BodyHandlers.discarding())
                    .statusCode()
                == 200;
          } catch (IOException e) {
            return false;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        });
    return operator;
  }

  /** The 1-minute load average. */
  static double loadAverage() throws IOException {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
  }
}
