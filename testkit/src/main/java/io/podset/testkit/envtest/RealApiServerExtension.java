package io.podset.testkit.envtest;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JUnit 5 extension behind {@link WithRealApiServer}: starts a server per class or per test,
 * closes it when that scope ends (the server's shutdown hook is the backstop when the JVM dies
 * first), and resolves {@link RealApiServer} and {@link KubernetesClient} parameters.
 *
 * <p>When the binaries are missing the tests are skipped with a message saying how to build them,
 * unless {@link #binariesRequired()}; then they fail.
 */
public final class RealApiServerExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  /** System property that makes missing binaries a failure instead of a skip. */
  public static final String REQUIRED_PROPERTY = "podset.envtest.required";

  private static final Logger log = LoggerFactory.getLogger(RealApiServerExtension.class);

  /** Creates the extension (JUnit instantiates it). */
  public RealApiServerExtension() {}

  /**
   * Whether missing binaries fail the tests rather than skip them: the {@code CI} environment
   * variable is set to anything but {@code false}, or the system property {@value
   * #REQUIRED_PROPERTY} is {@code true}.
   */
  public static boolean binariesRequired() {
    String ci = System.getenv("CI");
    boolean onCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    return onCi || Boolean.getBoolean(REQUIRED_PROPERTY);
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
    return startOrSkip(builder::start, binariesRequired());
  }

  static <T> T startOrSkip(Supplier<T> starter, boolean required) {
    try {
      return starter.get();
    } catch (ControlPlaneBinariesMissingException e) {
      if (required) {
        throw new ControlPlaneBinariesMissingException(
            e.getMessage() + " (required because CI or -D" + REQUIRED_PROPERTY + "=true is set)");
      }
      log.warn("skipping real-API-server tests: {}", e.getMessage());
      throw new TestAbortedException("skipped: " + e.getMessage(), e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (settings(context).lifecycle() == WithRealApiServer.Lifecycle.PER_CLASS) {
      server(context);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    server(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RealApiServer.class || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    RealApiServer server = server(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == RealApiServer.class) {
      return server;
    }
    if (type == KubernetesClient.class) {
      return server.client();
    }
    throw new ParameterResolutionException("unsupported parameter type " + type);
  }

  private static WithRealApiServer settings(ExtensionContext context) {
    return context
        .getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, WithRealApiServer.class))
        .orElse(Defaults.class.getAnnotation(WithRealApiServer.class));
  }

  /** The server of the current scope: the class's, or the method's for PER_METHOD. */
  private static RealApiServer server(ExtensionContext context) {
    WithRealApiServer settings = settings(context);
    return ExtensionScopes.server(
        context,
        settings.lifecycle() == WithRealApiServer.Lifecycle.PER_CLASS,
        RealApiServerExtension.class,
        RealApiServer.class,
        () -> startOrSkip(builder(settings)));
  }

  private static RealApiServerBuilder builder(WithRealApiServer settings) {
    RealApiServerBuilder builder = RealApiServer.builder();
    if (settings.controllers().length > 0) {
      builder.controllers(List.of(settings.controllers()));
    } else if (settings.controllerManager()) {
      builder.withControllerManager();
    }
    ExtensionScopes.readCrds(settings.crds(), builder::crdYaml);
    return builder;
  }

  @WithRealApiServer
  private static final class Defaults {}
}
