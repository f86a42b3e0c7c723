package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.testkit.internal.http.Kubeconfigs;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link RealApiServer} made of local child processes. */
final class LocalControlPlane implements RealApiServer {

  private static final Logger log = LoggerFactory.getLogger(LocalControlPlane.class);

  /**
   * What to start; validated by the builders.
   *
   * @param controllers the controller manager's controllers; empty: no controller manager
   * @param simulatedNodes whether kube-scheduler and kwok run too (a {@link SimulatedCluster})
   */
  record Settings(
      ControlPlaneBinaries binaries,
      List<String> controllers,
      List<CustomResourceDefinition> crds,
      Duration startTimeout,
      Map<String, String> apiServerFlags,
      Map<String, String> controllerManagerFlags,
      boolean simulatedNodes) {}

  private final Settings settings;
  private final Path workDir;
  private final Thread shutdownHook;

  /** Guards the fields below; held briefly, never while waiting on the server. */
  private final Object lock = new Object();

  /** Null until the processes are ready; stopped once on close. */
  private @Nullable ControlPlaneProcesses processes;

  private @Nullable KubernetesClient adminClient;
  private @Nullable String version;

  /** Clients handed out; closed on close. */
  private final List<KubernetesClient> clients = new ArrayList<>();

  private boolean closed;

  private LocalControlPlane(Settings settings, Path workDir) {
    this.settings = settings;
    this.workDir = workDir;
    this.shutdownHook =
        new Thread(this::closeFromHook, "envtest-shutdown-" + workDir.getFileName());
  }

  static LocalControlPlane start(Settings settings) {
    long startNanos = System.nanoTime();
    Path workDir = WorkDirectories.create();
    LocalControlPlane server = new LocalControlPlane(settings, workDir);
    Runtime.getRuntime().addShutdownHook(server.shutdownHook);
    try {
      server.startProcesses(startNanos + settings.startTimeout().toNanos());
      log.info(
          "control plane {} ready at {} in {} ms (controller manager: {}, scheduler and kwok: {})",
          server.version,
          server.url(),
          Duration.ofNanos(System.nanoTime() - startNanos).toMillis(),
          server.controllerManagerRunning(),
          settings.simulatedNodes());
      return server;
    } catch (RuntimeException | Error e) {
      server.close();
      throw e;
    }
  }

  private void startProcesses(long deadlineNanos) {
    ControlPlaneProcesses started = ControlPlaneProcesses.start(settings, workDir, deadlineNanos);
    KubernetesClient admin;
    synchronized (lock) {
      processes = started;
      admin = new KubernetesClientBuilder().withConfig(clientConfig()).build();
      adminClient = admin;
    }
    String gitVersion = admin.getKubernetesVersion().getGitVersion();
    synchronized (lock) {
      version = gitVersion;
    }
    installCrds(settings.crds(), deadlineNanos);
  }

  @Override
  public URI url() {
    return running().url();
  }

  @Override
  public String version() {
    running();
    synchronized (lock) {
      return Objects.requireNonNull(version, "version");
    }
  }

  @Override
  public KubernetesClient client() {
    running();
    synchronized (lock) {
      return Objects.requireNonNull(adminClient, "adminClient");
    }
  }

  @Override
  public KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(clientConfig()).build();
  }

  @Override
  public Config clientConfig() {
    return Config.fromKubeconfig(adminKubeconfig());
  }

  private String adminKubeconfig() {
    ControlPlaneProcesses p = running();
    return Kubeconfigs.render(
        "envtest", p.url(), p.caPem(), "envtest-admin", p.adminToken(), "default");
  }

  @Override
  public Path writeKubeconfig(Path path) {
    Objects.requireNonNull(path, "path");
    return Kubeconfigs.write(path, adminKubeconfig());
  }

  @Override
  public Config serviceAccountConfig(String namespace, String serviceAccount) {
    return Config.fromKubeconfig(serviceAccountKubeconfig(namespace, serviceAccount));
  }

  @Override
  public Path writeKubeconfig(Path path, String namespace, String serviceAccount) {
    Objects.requireNonNull(path, "path");
    return Kubeconfigs.write(path, serviceAccountKubeconfig(namespace, serviceAccount));
  }

  private String serviceAccountKubeconfig(String namespace, String serviceAccount) {
    requireName(namespace, "namespace");
    requireName(serviceAccount, "serviceAccount");
    ControlPlaneProcesses p = running();
    String token = ServiceAccountTokens.token(client(), namespace, serviceAccount);
    String user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
    return Kubeconfigs.render("envtest", p.url(), p.caPem(), user, token, namespace);
  }

  @Override
  public KubernetesClient serviceAccountClient(String namespace, String serviceAccount) {
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(serviceAccountConfig(namespace, serviceAccount))
            .build();
    synchronized (lock) {
      if (closed) {
        client.close();
        throw new IllegalStateException("the control plane is closed");
      }
      clients.add(client);
    }
    return client;
  }

  @Override
  public List<CustomResourceDefinition> installCrds(InputStream yaml) {
    return installCrds(CrdDocuments.parse(yaml, "CRD stream"), deadline());
  }

  @Override
  public List<CustomResourceDefinition> installCrds(Path yaml) {
    return installCrds(CrdDocuments.parse(yaml), deadline());
  }

  @Override
  public CustomResourceDefinition installCrd(CustomResourceDefinition crd) {
    Objects.requireNonNull(crd, "crd");
    return installCrds(List.of(crd), deadline()).get(0);
  }

  /** A deadline one start timeout from now, for waits after the start. */
  long deadline() {
    return System.nanoTime() + settings.startTimeout().toNanos();
  }

  private List<CustomResourceDefinition> installCrds(
      List<CustomResourceDefinition> crds, long deadlineNanos) {
    return CrdInstaller.install(client(), crds, deadlineNanos);
  }

  /** The running processes, in start order. */
  List<ManagedProcess> processes() {
    return running().processes();
  }

  @Override
  public boolean controllerManagerRunning() {
    return running().controllerManagerRunning();
  }

  @Override
  public Path workDirectory() {
    return workDir;
  }

  @Override
  public void close() {
    closeInternal();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or ran already
    }
  }

  private void closeFromHook() {
    closeInternal();
  }

  private void closeInternal() {
    ControlPlaneProcesses toStop;
    List<KubernetesClient> toClose;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      toStop = processes;
      toClose = new ArrayList<>(clients);
      if (adminClient != null) {
        toClose.add(adminClient);
      }
      clients.clear();
    }
    for (KubernetesClient client : toClose) {
      try {
        client.close();
      } catch (RuntimeException e) {
        log.debug("closing a client failed", e);
      }
    }
    if (toStop != null) {
      toStop.stop();
    }
    WorkDirectories.delete(workDir);
  }

  private ControlPlaneProcesses running() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the control plane at " + workDir + " is closed");
      }
      if (processes == null) {
        throw new IllegalStateException("the control plane is still starting");
      }
      return processes;
    }
  }

  private static void requireName(String value, String field) {
    Objects.requireNonNull(value, field);
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + ": must not be blank");
    }
  }
}
