package io.podset.testkit.envtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;

/**
 * What the JUnit extensions of this package share: one server per class or per test method, kept in
 * the JUnit store of that scope and closed when it ends, and CRDs read from the class path.
 */
final class ExtensionScopes {

  private ExtensionScopes() {}

  /**
   * The server of the current scope, started by {@code starter} on first use: the test class's when
   * {@code perClass}, else the test method's.
   *
   * @throws ParameterResolutionException when a per-method server is asked for outside a method
   */
  static <T extends AutoCloseable> T server(
      ExtensionContext context,
      boolean perClass,
      Class<?> extension,
      Class<T> type,
      Supplier<T> starter) {
    ExtensionContext scope = context;
    if (perClass) {
      while (scope.getParent().isPresent() && scope.getTestMethod().isPresent()) {
        scope = scope.getParent().get();
      }
    } else if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "a PER_METHOD " + type.getSimpleName() + " exists only within a test method");
    }
    Closing<?> resource =
        scope
            .getStore(ExtensionContext.Namespace.create(extension))
            .getOrComputeIfAbsent(type.getName(), k -> new Closing<>(starter.get()), Closing.class);
    return type.cast(resource.value());
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
