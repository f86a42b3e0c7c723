package io.podset.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link WithFakeApiServer}: starts a server per class or per test,
 * closes it when that scope ends, and resolves {@link FakeApiServer} and {@link KubernetesClient}
 * parameters. Usable with {@code @ExtendWith} directly (defaults of the annotation apply).
 */
public final class FakeApiServerExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FakeApiServerExtension.class);
  private static final String KEY = "server";

  /** Creates the extension (JUnit instantiates it). */
  public FakeApiServerExtension() {}

  @Override
  public void beforeAll(ExtensionContext context) {
    if (settings(context).lifecycle() == WithFakeApiServer.Lifecycle.PER_CLASS) {
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
    return type == FakeApiServer.class || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    FakeApiServer server = server(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == FakeApiServer.class) {
      return server;
    }
    if (type == KubernetesClient.class) {
      return server.client();
    }
    throw new ParameterResolutionException("unsupported parameter type " + type);
  }

  private static WithFakeApiServer settings(ExtensionContext context) {
    return context
        .getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, WithFakeApiServer.class))
        .orElse(Defaults.class.getAnnotation(WithFakeApiServer.class));
  }

  /** The server of the current scope: the class's, or the method's for PER_METHOD. */
  private static FakeApiServer server(ExtensionContext context) {
    WithFakeApiServer settings = settings(context);
    ExtensionContext scope = context;
    if (settings.lifecycle() == WithFakeApiServer.Lifecycle.PER_CLASS) {
      while (scope.getParent().isPresent() && scope.getTestMethod().isPresent()) {
        scope = scope.getParent().get();
      }
    } else if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "a PER_METHOD fake API server exists only within a test method");
    }
    Resource resource =
        scope
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(KEY, k -> new Resource(create(settings)), Resource.class);
    return resource.server();
  }

  private static FakeApiServer create(WithFakeApiServer settings) {
    FakeApiServer server = FakeApiServer.builder().historyWindow(settings.historyWindow()).start();
    for (String crd : settings.crds()) {
      String path = crd.startsWith("/") ? crd.substring(1) : crd;
      try (InputStream in =
          Thread.currentThread().getContextClassLoader().getResourceAsStream(path)) {
        if (in == null) {
          server.close();
          throw new IllegalArgumentException("CRD resource not found on the class path: " + crd);
        }
        server.installCrds(in);
      } catch (IOException e) {
        server.close();
        throw new UncheckedIOException(e);
      }
    }
    return server;
  }

  /** Closes the server when its JUnit scope ends. */
  private record Resource(FakeApiServer server) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
    }
  }

  @WithFakeApiServer
  private static final class Defaults {}
}
