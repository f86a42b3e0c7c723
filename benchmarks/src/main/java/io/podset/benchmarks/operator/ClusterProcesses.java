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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes of a {@link ClusterConverge} run: the cluster's (children of this JVM), our
 * operator's JVM when it is the contender, and the machine's load.
 */
final class ClusterProcesses {

  /**
   * The CPUs that processes outside a run may use on average while it runs for its figures to
   * count. The load average cannot tell: at the end of a run it counts the run's own cluster.
   */
  static final double MAX_OTHERS_CPUS = 0.25;

  /** Linux's USER_HZ: /proc/stat counts CPU time in hundredths of a second. */
  private static final Duration TICK = Duration.ofMillis(10);

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

  /**
   * Our operator's jar in its own JVM, as a user runs it (admin kubeconfig, default options, the
   * JVM options of deploy/operator.yaml: {@link DeployedJvm}).
   */
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

  static Operator startOperator(SimulatedCluster cluster, Path dir, List<String> jvmOptions)
      throws IOException {
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("operator.kubeconfig"));
    int healthPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      healthPort = socket.getLocalPort();
    }
    Path log = dir.resolve("operator.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // As deploy/operator.yaml runs it: its JAVA_TOOL_OPTIONS and what its container's limits make
    // the JVM choose (on 2 CPUs and 23 GB the JVM picked G1, two compiler threads and a 6-GB
    // heap; the Deployment's 1 CPU and 512Mi give the serial collector and a 384-MB heap).
    command.addAll(DeployedJvm.options());
    // What a profile of this run needs (OperatorPerf).
    command.addAll(jvmOptions);
    // As run.sh does for every contender JVM: extra options for profiling (e.g. JFR).
    String javaOptions = System.getenv().getOrDefault("CONTENDER_JAVA_OPTS", "").trim();
    if (!javaOptions.isEmpty()) {
      command.addAll(List.of(javaOptions.split("\\s+")));
    }
    command.addAll(
        List.of(
            "-jar",
            operatorJar().toString(),
            "--kubeconfig=" + kubeconfig,
            "--health-port=" + healthPort,
            "--metrics-port=0"));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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

  /**
   * The operator's jar as built ({@code podset-operator/target/podset-operator.jar}, its {@code
   * lib/} beside it), found on this JVM's class path. Run with {@code -jar}, the operator has its
   * own class path and logging configuration, as a user runs it: on the benchmarks' class path it
   * got the benchmarks' logback.xml and one of three fabric8 HTTP clients at random (OkHttp in a
   * profiled run) instead of its Vert.x client.
   */
  static Path operatorJar() {
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry);
      if (path.getFileName() != null
          && path.getFileName().toString().equals("podset-operator.jar")) {
        if (!Files.isDirectory(path.resolveSibling("lib"))) {
          throw new IllegalStateException(
              "the operator's jar "
                  + path
                  + " has no lib/ beside it: build it with ./mvnw package");
        }
        return path;
      }
    }
    throw new IllegalStateException(
        "podset-operator.jar is not on the class path: run from benchmarks/run.sh's class path");
  }

  /** The machine's busy CPU time so far, all CPUs, and the part this run's processes used. */
  record Usage(Duration machineBusy, Duration run) {
    /** The CPUs that processes outside the run used on average from {@code start} to this. */
    double othersSince(Usage start, Duration wall) {
      Duration others = machineBusy.minus(start.machineBusy).minus(run.minus(start.run));
      return Math.max(0, others.toNanos()) / (double) wall.toNanos();
    }
  }

  /**
   * Now: the machine's busy time from /proc/stat and the CPU of this JVM and everything it started
   * (the cluster's processes and our operator's JVM). A process of the run that ended before this
   * counts as another's, which errs on the side of an invalid figure.
   */
  static Usage usage() throws IOException {
    Duration run = cpu(ProcessHandle.current());
    for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
      run = run.plus(cpu(p));
    }
    return new Usage(machineBusy(Files.readString(Path.of("/proc/stat"))), run);
  }

  private static Duration cpu(ProcessHandle process) {
    return process.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /**
   * The busy time in /proc/stat's first line ({@code cpu user nice system idle iowait irq softirq
   * steal ...}): all but idle and iowait.
   */
  static Duration machineBusy(String procStat) {
    String[] fields = procStat.lines().findFirst().orElse("").trim().split("\\s+");
    if (fields.length < 9 || !fields[0].equals("cpu")) {
      throw new IllegalArgumentException("not /proc/stat: " + procStat.lines().findFirst());
    }
    long ticks = 0;
    for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
      ticks += Long.parseLong(fields[i]);
    }
    return TICK.multipliedBy(ticks);
  }

  /** The 1-minute load average. */
  static double loadAverage() throws IOException {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
  }
}
