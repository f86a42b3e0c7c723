package io.podset.testkit.envtest;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * JUnit 5 extension that runs a {@link RealApiServer} for a test class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RealApiServerExtension kube =
 *     RealApiServerExtension.of(RealApiServer.builder().withControllerManager());
 *
 * @Test
 * void createsConfigMap(KubernetesClient admin) { ... }
 * }</pre>
 *
 * <p>Registered on a static field, one server serves the whole class (started before all tests,
 * closed after all); on an instance field, each test gets its own. Test methods and lifecycle
 * methods can take a {@link RealApiServer} or a {@link KubernetesClient} (the admin client)
 * parameter.
 *
 * <p>When the binaries are missing the tests are skipped with a message saying how to build them,
 * unless binaries are required: the {@code CI} environment variable is set (and not {@code false}),
 * or the system property {@value #REQUIRED_PROPERTY} is {@code true}; then they fail.
 */
public final class RealApiServerExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  /** System property that makes missing binaries a failure instead of a skip. */
  public static final String REQUIRED_PROPERTY = "podset.envtest.required";

  private final Supplier<RealApiServer> starter;
  private final BooleanSupplier required;

  /** Guards {@link #server} and {@link #perClass}. */
  private final Object lock = new Object();

  private RealApiServer server;

  /** Whether the server was started in beforeAll (static registration). */
  private boolean perClass;

  RealApiServerExtension(Supplier<RealApiServer> starter, BooleanSupplier required) {
    this.starter = starter;
    this.required = required;
  }

  /** An extension for a server with default settings (no controller manager, no CRDs). */
  public static RealApiServerExtension create() {
    return of(RealApiServer.builder());
  }

  /**
   * An extension for the server the builder describes; the builder is used at start.
   *
   * @throws NullPointerException if {@code builder} is null
   */
  public static RealApiServerExtension of(RealApiServerBuilder builder) {
    Objects.requireNonNull(builder, "builder");
    return new RealApiServerExtension(builder::start, RealApiServerExtension::binariesRequired);
  }

  /**
   * The running server.
   *
   * @throws IllegalStateException outside a test's lifetime
   */
  public RealApiServer server() {
    synchronized (lock) {
      if (server == null) {
        throw new IllegalStateException("the real API server runs only while a test runs");
      }
      return server;
    }
  }

  /**
   * Whether missing binaries fail the tests rather than skip them: {@code CI} is set to anything
   * but {@code false}, or {@value #REQUIRED_PROPERTY} is {@code true}.
   */
  public static boolean binariesRequired() {
    String ci = System.getenv("CI");
    boolean onCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    return onCi || Boolean.getBoolean(REQUIRED_PROPERTY);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    synchronized (lock) {
      perClass = true;
      server = startOrSkip();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    closeServer();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    synchronized (lock) {
      if (server == null) {
        server = startOrSkip();
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    boolean close;
    synchronized (lock) {
      close = !perClass;
    }
    if (close) {
      closeServer();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RealApiServer.class || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RealApiServer.class ? server() : server().adminClient();
  }

  private void closeServer() {
    RealApiServer toClose;
    synchronized (lock) {
      toClose = server;
      server = null;
    }
    if (toClose != null) {
      toClose.close();
    }
  }

  private RealApiServer startOrSkip() {
    return startOrSkip(starter, required.getAsBoolean());
  }

  /**
   * Starts a server outside the extension's lifecycle (the caller closes it), with the extension's
   * policy for missing binaries: skip the test, or fail it when {@link #binariesRequired()}.
   *
   * @throws TestAbortedException if the binaries are missing and not required
   * @throws ControlPlaneBinariesMissingException if they are missing and required
   * @throws NullPointerException if {@code builder} is null
   */
  public static RealApiServer startOrSkip(RealApiServerBuilder builder) {
    Objects.requireNonNull(builder, "builder");
    return startOrSkip(builder::start, binariesRequired());
  }

  private static RealApiServer startOrSkip(Supplier<RealApiServer> starter, boolean required) {
    try {
      return starter.get();
    } catch (ControlPlaneBinariesMissingException e) {
      if (required) {
        throw new ControlPlaneBinariesMissingException(
            e.getMessage() + " (required because CI or -D" + REQUIRED_PROPERTY + "=true is set)");
      }
      throw new TestAbortedException("skipped: " + e.getMessage(), e);
    }
  }
}
