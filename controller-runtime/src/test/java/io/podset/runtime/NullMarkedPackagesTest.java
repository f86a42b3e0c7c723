package io.podset.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.runtime.reconcile.Reconciler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/**
 * Every package of the library is {@link NullMarked}: its types are non-null unless annotated
 * {@code @Nullable}, which is what NullAway checks at compile time and what callers (Kotlin, IDEs)
 * read. A package without it would be left out of both silently.
 */
class NullMarkedPackagesTest {

  private static final Path SOURCES = Path.of("src/main/java/io/podset/runtime");

  @Test
  void everyPackageIsNullMarked() throws IOException {
    List<String> unmarked;
    try (Stream<Path> dirs = Files.walk(SOURCES)) {
      unmarked =
          dirs.filter(Files::isDirectory)
              .filter(NullMarkedPackagesTest::holdsClasses)
              .filter(dir -> !isNullMarked(dir))
              .map(dir -> SOURCES.relativize(dir).toString())
              .toList();
    }
    assertThat(unmarked).as("packages without @NullMarked in their package-info").isEmpty();
    assertThat(Reconciler.class.getPackage().isAnnotationPresent(NullMarked.class))
        .as("@NullMarked is kept in the class files")
        .isTrue();
  }

  private static boolean holdsClasses(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.toString().endsWith(".java"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean isNullMarked(Path dir) {
    Path info = dir.resolve("package-info.java");
    try {
      return Files.exists(info) && Files.readString(info).contains("@NullMarked");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
