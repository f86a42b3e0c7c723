package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SimulatedCluster} of local processes: a {@link LocalControlPlane} that also runs
 * kube-scheduler and kwok, plus the nodes created here.
 */
final class LocalSimulatedCluster implements SimulatedCluster {

  private static final Logger log = LoggerFactory.getLogger(LocalSimulatedCluster.class);

  private final LocalControlPlane plane;
  private final List<String> nodeNames;
  private final Duration startDuration;

  private LocalSimulatedCluster(
      LocalControlPlane plane, List<String> nodeNames, Duration startDuration) {
    this.plane = plane;
    this.nodeNames = nodeNames;
    this.startDuration = startDuration;
  }

  static SimulatedCluster start(LocalControlPlane.Settings settings, int nodes) {
    long startNanos = System.nanoTime();
    long deadlineNanos = startNanos + settings.startTimeout().toNanos();
    LocalControlPlane plane = LocalControlPlane.start(settings);
    try {
      KubernetesClient admin = plane.client();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        names.add(SimulatedNodes.create(admin, "kwok-node-" + i).getMetadata().getName());
      }
      SimulatedNodes.awaitSchedulable(admin, names, deadlineNanos, plane.processes());
      // Pods need their namespace's ServiceAccount (admission); the controller creates it.
      Readiness.await(
          "the default ServiceAccount",
          deadlineNanos,
          plane.processes(),
          () -> admin.serviceAccounts().inNamespace("default").withName("default").get() != null);
      Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
      log.info(
          "simulated cluster with {} nodes ready at {} in {} ms",
          nodes,
          plane.url(),
          took.toMillis());
      return new LocalSimulatedCluster(plane, List.copyOf(names), took);
    } catch (RuntimeException | Error e) {
      plane.close();
      throw e;
    }
  }

  @Override
  public List<String> nodeNames() {
    return nodeNames;
  }

  @Override
  public Node addNode(String name) {
    Objects.requireNonNull(name, "name");
    KubernetesClient admin = plane.client();
    SimulatedNodes.create(admin, name);
    SimulatedNodes.awaitSchedulable(admin, List.of(name), plane.deadline(), plane.processes());
    return admin.nodes().withName(name).get();
  }

  @Override
  public Duration startDuration() {
    return startDuration;
  }

  @Override
  public URI url() {
    return plane.url();
  }

  @Override
  public String version() {
    return plane.version();
  }

  @Override
  public KubernetesClient client() {
    return plane.client();
  }

  @Override
  public KubernetesClient newClient() {
    return plane.newClient();
  }

  @Override
  public Config clientConfig() {
    return plane.clientConfig();
  }

  @Override
  public Path writeKubeconfig(Path path) {
    return plane.writeKubeconfig(path);
  }

  @Override
  public Config serviceAccountConfig(String namespace, String serviceAccount) {
    return plane.serviceAccountConfig(namespace, serviceAccount);
  }

  @Override
  public Path writeKubeconfig(Path path, String namespace, String serviceAccount) {
    return plane.writeKubeconfig(path, namespace, serviceAccount);
  }

  @Override
  public KubernetesClient serviceAccountClient(String namespace, String serviceAccount) {
    return plane.serviceAccountClient(namespace, serviceAccount);
  }

  @Override
  public List<CustomResourceDefinition> installCrds(InputStream yaml) {
    return plane.installCrds(yaml);
  }

  @Override
  public List<CustomResourceDefinition> installCrds(Path yaml) {
    return plane.installCrds(yaml);
  }

  @Override
  public CustomResourceDefinition installCrd(CustomResourceDefinition crd) {
    return plane.installCrd(crd);
  }

  @Override
  public boolean controllerManagerRunning() {
    return plane.controllerManagerRunning();
  }

  @Override
  public Path workDirectory() {
    return plane.workDirectory();
  }

  @Override
  public void close() {
    plane.close();
  }
}
