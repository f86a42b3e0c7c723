package io.podset.testkit.junit5;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.RealApiServerBuilder;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JUnit 5 extension behind {@link WithRealApiServer}: starts a server per class or per test,
 * closes it when that scope ends (the server's shutdown hook is the backstop when the JVM dies
 * first), and resolves {@link RealApiServer} and {@link KubernetesClient} parameters.
 *
 * <p>When the binaries are missing the tests are skipped with a message saying how to build them,
 * unless {@link ControlPlaneBinaries#required()}; then they fail.
 */
public final class RealApiServerExtension
    extends ServerExtension<WithRealApiServer, RealApiServer> {

  private static final Logger log = LoggerFactory.getLogger(RealApiServerExtension.class);

  /** Creates the extension (JUnit instantiates it). */
  public RealApiServerExtension() {
    super(
        WithRealApiServer.class,
        Defaults.class.getAnnotation(WithRealApiServer.class),
        RealApiServer.class);
  }

  /**
   * Starts a server outside any extension scope (the caller closes it), with the extension's policy
   * for missing binaries.
   *
   * @throws TestAbortedException if the binaries are missing and not required
   * @throws ControlPlaneBinariesMissingException if they are missing and required
   * @throws NullPointerException if {@code builder} is null
   */
  public static RealApiServer startOrSkip(RealApiServerBuilder builder) {
    Objects.requireNonNull(builder, "builder");
    return startOrSkip(builder::start, ControlPlaneBinaries.required());
  }

  static <T> T startOrSkip(Supplier<T> starter, boolean required) {
    try {
      return starter.get();
    } catch (ControlPlaneBinariesMissingException e) {
      if (required) {
        throw new ControlPlaneBinariesMissingException(
            e.getMessage()
                + " (required because CI or -D"
                + ControlPlaneBinaries.REQUIRED_PROPERTY
                + "=true is set)");
      }
      log.warn("skipping real-API-server tests: {}", e.getMessage());
      throw new TestAbortedException("skipped: " + e.getMessage(), e);
    }
  }

  @Override
  boolean perClass(WithRealApiServer settings) {
    return settings.lifecycle() == WithRealApiServer.Lifecycle.PER_CLASS;
  }

  @Override
  RealApiServer start(WithRealApiServer settings) {
    return startOrSkip(builder(settings));
  }

  @Override
  KubernetesClient client(RealApiServer server) {
    return server.client();
  }

  private static RealApiServerBuilder builder(WithRealApiServer settings) {
    RealApiServerBuilder builder = RealApiServer.builder();
    if (settings.controllers().length > 0) {
      builder.controllers(List.of(settings.controllers()));
    } else if (settings.controllerManager()) {
      builder.withControllerManager();
    }
    readCrds(settings.crds(), builder::crdYaml);
    return builder;
  }

  @WithRealApiServer
  private static final class Defaults {}
}
