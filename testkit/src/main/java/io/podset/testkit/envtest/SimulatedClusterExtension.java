package io.podset.testkit.envtest;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * The JUnit 5 extension behind {@link WithSimulatedCluster}: starts a cluster per class or per
 * test, closes it when that scope ends (the processes' shutdown hook is the backstop when the JVM
 * dies first), and resolves {@link SimulatedCluster}, {@link RealApiServer} and {@link
 * KubernetesClient} parameters. Missing binaries skip or fail the tests as {@link
 * RealApiServerExtension} does.
 */
public final class SimulatedClusterExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  /** Creates the extension (JUnit instantiates it). */
  public SimulatedClusterExtension() {}

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
    return RealApiServerExtension.startOrSkip(
        builder::start, RealApiServerExtension.binariesRequired());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (settings(context).lifecycle() == WithSimulatedCluster.Lifecycle.PER_CLASS) {
      cluster(context);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    cluster(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == SimulatedCluster.class
        || type == RealApiServer.class
        || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    SimulatedCluster cluster = cluster(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == SimulatedCluster.class || type == RealApiServer.class) {
      return cluster;
    }
    if (type == KubernetesClient.class) {
      return cluster.client();
    }
    throw new ParameterResolutionException("unsupported parameter type " + type);
  }

  private static WithSimulatedCluster settings(ExtensionContext context) {
    return context
        .getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, WithSimulatedCluster.class))
        .orElse(Defaults.class.getAnnotation(WithSimulatedCluster.class));
  }

  private static SimulatedCluster cluster(ExtensionContext context) {
    WithSimulatedCluster settings = settings(context);
    return ExtensionScopes.server(
        context,
        settings.lifecycle() == WithSimulatedCluster.Lifecycle.PER_CLASS,
        SimulatedClusterExtension.class,
        SimulatedCluster.class,
        () -> startOrSkip(builder(settings)));
  }

  private static SimulatedClusterBuilder builder(WithSimulatedCluster settings) {
    SimulatedClusterBuilder builder = SimulatedCluster.builder().nodes(settings.nodes());
    if (settings.controllers().length > 0) {
      builder.controllers(List.of(settings.controllers()));
    }
    ExtensionScopes.readCrds(settings.crds(), builder::crdYaml);
    return builder;
  }

  @WithSimulatedCluster
  private static final class Defaults {}
}
