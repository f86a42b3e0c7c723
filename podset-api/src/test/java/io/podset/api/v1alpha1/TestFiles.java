package io.podset.api.v1alpha1;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** Paths handed to the tests by the build (see surefire's systemPropertyVariables in the pom). */
final class TestFiles {

  /** The classpath resource the CRD generator writes during process-classes. */
  static final String GENERATED_CRD_RESOURCE = "META-INF/fabric8/podsets.app.example.com-v1.yml";

  private TestFiles() {}

  static Path path(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException(
          "system property " + property + " is not set; run the tests through Maven");
    }
    return Path.of(value);
  }

  static String read(Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String generatedCrd() {
    try (InputStream in =
        TestFiles.class.getClassLoader().getResourceAsStream(GENERATED_CRD_RESOURCE)) {
      Objects.requireNonNull(
          in, GENERATED_CRD_RESOURCE + " is not on the classpath: did the CRD generator run?");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
