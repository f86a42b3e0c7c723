package io.podset.testkit.envtest;

import io.podset.testkit.internal.http.Kubeconfigs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts etcd, kube-apiserver and then, side by side, the optional kube-controller-manager,
 * kube-scheduler and kwok on loopback, each with its own free ports, files under one work
 * directory, and waits until each is healthy.
 */
final class ControlPlaneProcesses {

  private static final Logger log = LoggerFactory.getLogger(ControlPlaneProcesses.class);
  private static final int ATTEMPTS = 3;
  private static final long STOP_GRACE_MILLIS = 10_000;

  /** Started processes, in start order; stopped in reverse. */
  private final List<ManagedProcess> processes;

  private final URI url;
  private final String adminToken;
  private final String caPem;

  private ControlPlaneProcesses(
      List<ManagedProcess> processes, URI url, String adminToken, String caPem) {
    this.processes = processes;
    this.url = url;
    this.adminToken = adminToken;
    this.caPem = caPem;
  }

  URI url() {
    return url;
  }

  String adminToken() {
    return adminToken;
  }

  /** The PEM certificates (serving certificate and its CA) that clients trust. */
  String caPem() {
    return caPem;
  }

  boolean controllerManagerRunning() {
    return processes.stream()
        .anyMatch(p -> p.name().equals("kube-controller-manager") && p.isAlive());
  }

  /** The processes in start order, for readiness waits that must fail fast when one exits. */
  List<ManagedProcess> processes() {
    return processes;
  }

  /**
   * Starts the processes. A start that fails because a port was taken meanwhile is retried with
   * other ports (up to three attempts).
   *
   * @throws ControlPlaneException if a process fails or is not healthy before the deadline
   */
  static ControlPlaneProcesses start(
      LocalControlPlane.Settings settings, Path workDir, long deadlineNanos) {
    String adminToken = randomToken();
    Path keys = mkdirs(workDir.resolve("keys"));
    Path tokens = keys.resolve("tokens.csv");
    write(tokens, adminToken + ",envtest-admin,envtest-admin,\"system:masters\"\n");
    Path signingKey = keys.resolve("service-account.key");
    Path verifyingKey = keys.resolve("service-account.pub");
    Pem.writeRsaKeyPair(signingKey, verifyingKey);
    for (int attempt = 1; ; attempt++) {
      Path attemptDir = mkdirs(workDir.resolve("run-" + attempt));
      List<ManagedProcess> started = new ArrayList<>();
      try {
        return startOnce(
            settings,
            attemptDir,
            tokens,
            signingKey,
            verifyingKey,
            adminToken,
            deadlineNanos,
            started);
      } catch (ControlPlaneException e) {
        stopAll(started);
        boolean portTaken =
            e.getMessage() != null && e.getMessage().contains("address already in use");
        if (!portTaken || attempt == ATTEMPTS) {
          throw e;
        }
        log.info(
            "a port was taken while starting the control plane; retrying (attempt {})",
            attempt + 1);
      }
    }
  }

  private static ControlPlaneProcesses startOnce(
      LocalControlPlane.Settings settings,
      Path dir,
      Path tokens,
      Path signingKey,
      Path verifyingKey,
      String adminToken,
      long deadlineNanos,
      List<ManagedProcess> started) {
    int[] ports = FreePorts.allocate(5);
    String etcdUrl = "http://127.0.0.1:" + ports[0];
    String peerUrl = "http://127.0.0.1:" + ports[1];
    ManagedProcess etcd =
        ManagedProcess.start(
            "etcd",
            List.of(
                settings.binaries().etcd().toString(),
                "--name=envtest",
                "--data-dir=" + mkdirs(dir.resolve("etcd-data")),
                "--listen-client-urls=" + etcdUrl,
                "--advertise-client-urls=" + etcdUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=envtest=" + peerUrl,
                "--unsafe-no-fsync=true",
                "--log-level=warn"),
            dir,
            dir.resolve("etcd.log"));
    started.add(etcd);
    Readiness.await(
        "etcd health",
        deadlineNanos,
        List.of(etcd),
        () -> Readiness.answersOk(URI.create(etcdUrl + "/health"), null, null));

    Path apiCerts = mkdirs(dir.resolve("apiserver-certs"));
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("etcd-servers", etcdUrl);
    flags.put("bind-address", "127.0.0.1");
    flags.put("advertise-address", "127.0.0.1");
    flags.put("secure-port", Integer.toString(ports[2]));
    flags.put("cert-dir", apiCerts.toString());
    flags.put("token-auth-file", tokens.toString());
    flags.put("authorization-mode", "RBAC");
    flags.put("service-account-issuer", "https://kubernetes.default.svc.cluster.local");
    flags.put("service-account-key-file", verifyingKey.toString());
    flags.put("service-account-signing-key-file", signingKey.toString());
    flags.put("service-cluster-ip-range", "10.0.0.0/24");
    flags.put("disable-admission-plugins", "ServiceAccount");
    flags.put("endpoint-reconciler-type", "none");
    flags.put("allow-privileged", "true");
    flags.putAll(settings.apiServerFlags());
    List<String> command = new ArrayList<>();
    command.add(settings.binaries().kubeApiServer().toString());
    flags.forEach((name, value) -> command.add("--" + name + "=" + value));
    ManagedProcess apiServer =
        ManagedProcess.start("kube-apiserver", command, dir, dir.resolve("kube-apiserver.log"));
    started.add(apiServer);
    URI url = URI.create("https://127.0.0.1:" + ports[2]);
    Path servingCert = apiCerts.resolve("apiserver.crt");
    Readiness.await(
        "kube-apiserver /readyz",
        deadlineNanos,
        List.of(etcd, apiServer),
        () -> {
          SSLContext tls = Pem.trustingOnceWritten(List.of(servingCert));
          return tls != null && Readiness.answersOk(url.resolve("/readyz"), tls, adminToken);
        });
    String caPem = read(servingCert);

    Path kubeconfig = dir.resolve("admin.kubeconfig");
    write(
        kubeconfig,
        Kubeconfigs.render("envtest", url, caPem, "envtest-admin", adminToken, "default"));
    ClusterComponents.Context context =
        new ClusterComponents.Context(settings, dir, kubeconfig, servingCert, signingKey);
    List<ClusterComponents.Started> components = new ArrayList<>();
    if (!settings.controllers().isEmpty()) {
      components.add(ClusterComponents.controllerManager(context, ports[3]));
    }
    if (settings.simulatedNodes()) {
      components.add(ClusterComponents.scheduler(context, ports[4]));
      components.add(ClusterComponents.kwok(context));
    }
    components.forEach(c -> started.add(c.process()));
    for (ClusterComponents.Started component : components) {
      component.awaitHealthy(deadlineNanos, List.copyOf(started));
    }
    return new ControlPlaneProcesses(List.copyOf(started), url, adminToken, caPem);
  }

  /** Stops every process, newest first. */
  void stop() {
    stopAll(processes);
  }

  private static void stopAll(List<ManagedProcess> started) {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).stop(STOP_GRACE_MILLIS);
    }
  }

  private static String randomToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static Path mkdirs(Path dir) {
    return ClusterComponents.mkdirs(dir);
  }

  private static void write(Path file, String content) {
    ClusterComponents.write(file, content);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
