package io.podset.testkit.envtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The temporary directory of one control plane (certificates, tokens, etcd data, logs): created at
 * start, deleted on close; a file that cannot be deleted is logged, not thrown.
 */
final class WorkDirectories {

  private static final Logger log = LoggerFactory.getLogger(WorkDirectories.class);

  private WorkDirectories() {}

  static Path create() {
    try {
      return Files.createTempDirectory("podset-envtest-");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a temporary directory for the control plane", e);
    }
  }

  static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not delete {} completely: {}", dir, e.toString());
    }
  }
}
