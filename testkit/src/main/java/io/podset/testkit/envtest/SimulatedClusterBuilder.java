package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Configures and starts a {@link SimulatedCluster}. Each method validates its argument immediately.
 * Not thread-safe; a builder can start several clusters.
 */
public final class SimulatedClusterBuilder {

  /** The controllers run by default: every controller that a cluster enables by default. */
  public static final List<String> DEFAULT_CONTROLLERS = List.of("*");

  /** The most nodes a cluster may have (each is an object kwok watches and heartbeats). */
  public static final int MAX_NODES = 1000;

  // CRDs, start timeout, binaries and API server flags are the real API server's settings.
  private final RealApiServerBuilder apiServer = new RealApiServerBuilder();
  private int nodes = 3;
  private List<String> controllers = DEFAULT_CONTROLLERS;
  private final Map<String, String> controllerManagerFlags = new LinkedHashMap<>();

  SimulatedClusterBuilder() {
    apiServer.startTimeout(Duration.ofSeconds(120));
    // Pods get their namespace's default ServiceAccount, as in a cluster (the serviceaccount
    // controller creates it).
    apiServer.apiServerFlag("disable-admission-plugins", "");
  }

  /**
   * How many simulated nodes start with the cluster, named {@code kwok-node-0} and on; default 3.
   *
   * @throws IllegalArgumentException if {@code count} is not in [1, {@value #MAX_NODES}]
   */
  public SimulatedClusterBuilder nodes(int count) {
    if (count < 1 || count > MAX_NODES) {
      throw new IllegalArgumentException(
          "nodes: must be between 1 and " + MAX_NODES + ", got " + count);
    }
    this.nodes = count;
    return this;
  }

  /**
   * The controllers of kube-controller-manager (its {@code --controllers} flag, such as {@code
   * "*,-job-controller"}); default {@link #DEFAULT_CONTROLLERS}.
   *
   * @throws NullPointerException if the list or an element is null
   * @throws IllegalArgumentException if the list is empty or a name is blank or contains a comma
   */
  public SimulatedClusterBuilder controllers(List<String> names) {
    this.controllers = RealApiServerBuilder.checkControllers(names);
    return this;
  }

  /**
   * An extra {@code kube-controller-manager} flag, such as {@code ("kube-api-qps", "1000")}; it
   * replaces a default of the same name.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is blank or starts with a dash
   */
  public SimulatedClusterBuilder controllerManagerFlag(String name, String value) {
    RealApiServerBuilder.checkFlag("controllerManagerFlag", name, value);
    controllerManagerFlags.put(name, value);
    return this;
  }

  /**
   * An extra {@code kube-apiserver} flag; see {@link RealApiServerBuilder#apiServerFlag}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is blank or starts with a dash
   */
  public SimulatedClusterBuilder apiServerFlag(String name, String value) {
    apiServer.apiServerFlag(name, value);
    return this;
  }

  /**
   * Uses these binaries instead of {@link ControlPlaneBinaries#locate()}.
   *
   * @throws NullPointerException if {@code binaries} is null
   */
  public SimulatedClusterBuilder binaries(ControlPlaneBinaries binaries) {
    apiServer.binaries(binaries);
    return this;
  }

  /**
   * A CRD to install once the server is ready; see {@link RealApiServerBuilder#crd}.
   *
   * @throws NullPointerException if {@code crd} is null
   */
  public SimulatedClusterBuilder crd(CustomResourceDefinition crd) {
    apiServer.crd(crd);
    return this;
  }

  /**
   * The CRDs in a YAML file; see {@link RealApiServerBuilder#crdFile}.
   *
   * @throws NullPointerException if {@code yaml} is null
   * @throws java.io.UncheckedIOException if the file cannot be read
   * @throws IllegalArgumentException if a document is not a CRD
   */
  public SimulatedClusterBuilder crdFile(Path yaml) {
    apiServer.crdFile(yaml);
    return this;
  }

  /**
   * The CRDs in a YAML stream; see {@link RealApiServerBuilder#crdYaml}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a document is not a CRD
   */
  public SimulatedClusterBuilder crdYaml(InputStream yaml, String source) {
    apiServer.crdYaml(yaml, source);
    return this;
  }

  /**
   * How long start may take in all (processes ready, nodes Ready, CRDs served); default 120 s. It
   * also bounds {@link SimulatedCluster#addNode}.
   *
   * @throws NullPointerException if {@code timeout} is null
   * @throws IllegalArgumentException if it is not positive
   */
  public SimulatedClusterBuilder startTimeout(Duration timeout) {
    apiServer.startTimeout(timeout);
    return this;
  }

  /** The number of nodes (for tests). */
  int nodeCount() {
    return nodes;
  }

  /**
   * Starts the cluster and waits until every node is Ready and schedulable, the {@code default}
   * ServiceAccount exists and the CRDs are served.
   *
   * @throws ControlPlaneBinariesMissingException if a binary is not found
   * @throws ControlPlaneException if a process fails to start or the cluster is not ready in time;
   *     the message holds the end of a log
   */
  public SimulatedCluster start() {
    LocalControlPlane.Settings settings =
        apiServer.settings(
            apiServer.binariesOrLocate(), controllers, Map.copyOf(controllerManagerFlags), true);
    return LocalSimulatedCluster.start(settings, nodes);
  }
}
