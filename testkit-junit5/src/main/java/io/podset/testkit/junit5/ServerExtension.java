package io.podset.testkit.junit5;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What the extensions of this package share: the settings from the test class's annotation (or its
 * defaults), one server per class or per test method, kept in the JUnit store of that scope and
 * closed when it ends, the server and its client as test parameters, and CRDs read from the class
 * path.
 *
 * @param <A> the annotation that configures the server
 * @param <S> the server
 */
abstract class ServerExtension<A extends Annotation, S extends AutoCloseable>
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  private final Class<A> annotation;
  private final A defaults;
  private final Class<S> serverType;
  private final List<Class<?>> resolvedAsServer;

  /**
   * @param annotation the configuring annotation
   * @param defaults the annotation with its defaults, for a class that does not carry it
   * @param serverType the server's type, resolved as a parameter
   * @param supertypes further parameter types the server is resolved as
   */
  ServerExtension(Class<A> annotation, A defaults, Class<S> serverType, Class<?>... supertypes) {
    this.annotation = Objects.requireNonNull(annotation, "annotation");
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.serverType = Objects.requireNonNull(serverType, "serverType");
    List<Class<?>> types = new ArrayList<>(List.of(supertypes));
    types.add(serverType);
    this.resolvedAsServer = List.copyOf(types);
  }

  /** Whether one server serves the whole class ({@code PER_CLASS}) rather than each method. */
  abstract boolean perClass(A settings);

  /** Starts a server as {@code settings} say; the extension closes it. */
  abstract S start(A settings);

  /** The server's client, closed with the server. */
  abstract KubernetesClient client(S server);

  @Override
  public final void beforeAll(ExtensionContext context) {
    if (perClass(settings(context))) {
      server(context);
    }
  }

  @Override
  public final void beforeEach(ExtensionContext context) {
    server(context);
  }

  @Override
  public final boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class || resolvedAsServer.contains(type);
  }

  @Override
  public final Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    S server = server(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == KubernetesClient.class) {
      return client(server);
    }
    if (resolvedAsServer.contains(type)) {
      return server;
    }
    throw new ParameterResolutionException("unsupported parameter type " + type);
  }

  private A settings(ExtensionContext context) {
    return context
        .getTestClass()
        .flatMap(c -> AnnotationSupport.findAnnotation(c, annotation))
        .orElse(defaults);
  }

  /**
   * The server of the current scope, started on first use: the test class's when {@link #perClass},
   * else the test method's.
   *
   * @throws ParameterResolutionException when a per-method server is asked for outside a method
   */
  private S server(ExtensionContext context) {
    A settings = settings(context);
    ExtensionContext scope = context;
    if (perClass(settings)) {
      while (scope.getParent().isPresent() && scope.getTestMethod().isPresent()) {
        scope = scope.getParent().get();
      }
    } else if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "a PER_METHOD " + serverType.getSimpleName() + " exists only within a test method");
    }
    Closing<?> resource =
        scope
            .getStore(ExtensionContext.Namespace.create(getClass()))
            .getOrComputeIfAbsent(
                serverType.getName(), k -> new Closing<>(start(settings)), Closing.class);
    return serverType.cast(resource.value());
  }

  /**
   * Reads each class-path resource and hands its stream and name to {@code sink}.
   *
   * @throws IllegalArgumentException if a resource is not on the class path
   * @throws UncheckedIOException if one cannot be read
   */
  static void readCrds(String[] resources, BiConsumer<InputStream, String> sink) {
    for (String crd : resources) {
      String path = crd.startsWith("/") ? crd.substring(1) : crd;
      try (InputStream in =
          Thread.currentThread().getContextClassLoader().getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalArgumentException("CRD resource not found on the class path: " + crd);
        }
        sink.accept(in, crd);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read CRD resource " + crd, e);
      }
    }
  }

  /** Closes the server when its JUnit scope ends (JUnit closes AutoCloseable store values). */
  private record Closing<T extends AutoCloseable>(T value) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      value.close();
    }
  }
}
