package io.podset.testkit.envtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * Starts the processes that run against a ready kube-apiserver: kube-controller-manager,
 * kube-scheduler and kwok. Each is started without waiting, so they come up side by side; {@link
 * Started#awaitHealthy} waits for those with a health endpoint.
 */
final class ClusterComponents {

  /** The annotation that puts a node under kwok's management. */
  static final String KWOK_NODE_ANNOTATION = "kwok.x-k8s.io/node";

  private static final String STAGES_RESOURCE = "kwok-stages.yaml";

  private ClusterComponents() {}

  /** What every component needs from the control plane started before it. */
  record Context(
      LocalControlPlane.Settings settings,
      Path dir,
      Path kubeconfig,
      Path caFile,
      Path serviceAccountSigningKey) {}

  /**
   * A started component; {@code healthz} is empty for one without a health endpoint (kwok: the
   * cluster's readiness is its nodes turning Ready).
   */
  record Started(ManagedProcess process, @Nullable URI healthz, @Nullable Path certDir) {

    /**
     * Waits until the component answers its {@code /healthz} over TLS with its self-signed
     * certificate.
     *
     * @throws ControlPlaneException when it exits or the deadline passes
     */
    void awaitHealthy(long deadlineNanos, List<ManagedProcess> watched) {
      URI url = healthz;
      Path dir = certDir;
      if (url == null || dir == null) {
        return;
      }
      Readiness.await(
          process.name() + " /healthz",
          deadlineNanos,
          watched,
          () -> {
            List<Path> certs = listCertificates(dir);
            SSLContext tls = certs.isEmpty() ? null : Pem.trustingOnceWritten(certs);
            return tls != null && Readiness.answersOk(url, tls, null);
          });
    }
  }

  /** kube-controller-manager with the settings' controllers and flags. */
  static Started controllerManager(Context context, int port) {
    Path certs = mkdirs(context.dir().resolve("kube-controller-manager-certs"));
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("kubeconfig", context.kubeconfig().toString());
    flags.put("controllers", String.join(",", context.settings().controllers()));
    flags.put("leader-elect", "false");
    flags.put("bind-address", "127.0.0.1");
    flags.put("secure-port", Integer.toString(port));
    flags.put("cert-dir", certs.toString());
    flags.put("use-service-account-credentials", "false");
    // For the ServiceAccount token and root CA publisher controllers, when they run.
    flags.put("service-account-private-key-file", context.serviceAccountSigningKey().toString());
    flags.put("root-ca-file", context.caFile().toString());
    flags.putAll(context.settings().controllerManagerFlags());
    ManagedProcess process =
        ManagedProcess.start(
            "kube-controller-manager",
            command(context.settings().binaries().kubeControllerManager().orElseThrow(), flags),
            context.dir(),
            context.dir().resolve("kube-controller-manager.log"));
    return new Started(process, healthz(port), certs);
  }

  /**
   * kube-scheduler from a configuration file: no leader election, and client limits high enough
   * that binding is not what a test measures (the defaults, 50 qps, would bind 3000 pods in a
   * minute).
   */
  static Started scheduler(Context context, int port) {
    Path certs = mkdirs(context.dir().resolve("kube-scheduler-certs"));
    Path config = context.dir().resolve("kube-scheduler.yaml");
    write(
        config,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: "%s"
          qps: 1000
          burst: 1000
        leaderElection:
          leaderElect: false
        """
            .formatted(context.kubeconfig()));
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("config", config.toString());
    flags.put("bind-address", "127.0.0.1");
    flags.put("secure-port", Integer.toString(port));
    flags.put("cert-dir", certs.toString());
    ManagedProcess process =
        ManagedProcess.start(
            "kube-scheduler",
            command(context.settings().binaries().kubeScheduler().orElseThrow(), flags),
            context.dir(),
            context.dir().resolve("kube-scheduler.log"));
    return new Started(process, healthz(port), certs);
  }

  /**
   * kwok with the stages of {@value #STAGES_RESOURCE}, managing the nodes annotated {@value
   * #KWOK_NODE_ANNOTATION}{@code =fake}. Its {@code HOME} is the work directory, so no {@code
   * ~/.kwok/kwok.yaml} of the user's is read.
   */
  static Started kwok(Context context) {
    Path stages = context.dir().resolve(STAGES_RESOURCE);
    try (InputStream in = ClusterComponents.class.getResourceAsStream(STAGES_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(STAGES_RESOURCE + " is missing from the class path");
      }
      Files.copy(in, stages);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + stages, e);
    }
    Path home = mkdirs(context.dir().resolve("kwok-home"));
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("kubeconfig", context.kubeconfig().toString());
    flags.put("config", stages.toString());
    flags.put("manage-all-nodes", "false");
    flags.put("manage-nodes-with-annotation-selector", KWOK_NODE_ANNOTATION + "=fake");
    flags.put("node-lease-duration-seconds", "40");
    // Addresses written into node and pod status only; nothing listens on them.
    flags.put("node-ip", "10.254.0.1");
    flags.put("cidr", "10.128.0.1/12");
    ManagedProcess process =
        ManagedProcess.start(
            "kwok",
            command(context.settings().binaries().kwok().orElseThrow(), flags),
            Map.of("HOME", home.toString()),
            context.dir(),
            context.dir().resolve("kwok.log"));
    return new Started(process, null, null);
  }

  private static List<String> command(Path binary, Map<String, String> flags) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    flags.forEach((name, value) -> command.add("--" + name + "=" + value));
    return command;
  }

  private static URI healthz(int port) {
    return URI.create("https://127.0.0.1:" + port + "/healthz");
  }

  private static List<Path> listCertificates(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".crt")).toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  static void write(Path file, String content) {
    try {
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
