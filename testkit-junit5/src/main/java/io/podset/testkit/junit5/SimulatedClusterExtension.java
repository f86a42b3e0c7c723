package io.podset.testkit.junit5;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.SimulatedCluster;
import io.podset.testkit.envtest.SimulatedClusterBuilder;
import java.util.List;
import java.util.Objects;
import org.opentest4j.TestAbortedException;

/**
 * The JUnit 5 extension behind {@link WithSimulatedCluster}: starts a cluster per class or per
 * test, closes it when that scope ends (the processes' shutdown hook is the backstop when the JVM
 * dies first), and resolves {@link SimulatedCluster}, {@link RealApiServer} and {@link
 * KubernetesClient} parameters. Missing binaries skip or fail the tests as {@link
 * RealApiServerExtension} does.
 */
public final class SimulatedClusterExtension
    extends ServerExtension<WithSimulatedCluster, SimulatedCluster> {

  /** Creates the extension (JUnit instantiates it). */
  public SimulatedClusterExtension() {
    super(
        WithSimulatedCluster.class,
        Defaults.class.getAnnotation(WithSimulatedCluster.class),
        SimulatedCluster.class,
        RealApiServer.class);
  }

  /**
   * Starts a cluster outside any extension scope (the caller closes it), with the extensions'
   * policy for missing binaries.
   *
   * @throws TestAbortedException if a binary is missing and binaries are not required
   * @throws ControlPlaneBinariesMissingException if one is missing and they are required
   * @throws NullPointerException if {@code builder} is null
   */
  public static SimulatedCluster startOrSkip(SimulatedClusterBuilder builder) {
    Objects.requireNonNull(builder, "builder");
    return RealApiServerExtension.startOrSkip(builder::start, ControlPlaneBinaries.required());
  }

  @Override
  boolean perClass(WithSimulatedCluster settings) {
    return settings.lifecycle() == WithSimulatedCluster.Lifecycle.PER_CLASS;
  }

  @Override
  SimulatedCluster start(WithSimulatedCluster settings) {
    return startOrSkip(builder(settings));
  }

  @Override
  KubernetesClient client(SimulatedCluster cluster) {
    return cluster.client();
  }

  private static SimulatedClusterBuilder builder(WithSimulatedCluster settings) {
    SimulatedClusterBuilder builder = SimulatedCluster.builder().nodes(settings.nodes());
    if (settings.controllers().length > 0) {
      builder.controllers(List.of(settings.controllers()));
    }
    readCrds(settings.crds(), builder::crdYaml);
    return builder;
  }

  @WithSimulatedCluster
  private static final class Defaults {}
}
