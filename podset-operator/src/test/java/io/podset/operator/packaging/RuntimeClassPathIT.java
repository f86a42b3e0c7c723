package io.podset.operator.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The operator as packaged for its image ({@code target/podset-operator.jar} and {@code
 * target/lib/}, which {@code Dockerfile} copies) holds no test code: no testkit, no fake API
 * server, no JUnit, opentest4j or CEL (the testkit's CRD rules; protobuf-java is the runtime's own,
 * for protobuf watches). The jar's manifest {@code Class-Path} is Maven's runtime class path, so
 * checking it and {@code lib/} checks what the operator runs with.
 */
class RuntimeClassPathIT {

  private static final Path TARGET = Path.of("target");

  /** Class-file prefixes that only test code brings, by what they are. */
  private static final Map<String, String> FORBIDDEN_CLASSES =
      Map.of(
          "io/podset/testkit/", "the testkit (fake API server)",
          "io/podset/playground/", "the playground",
          "io/fabric8/mockwebserver/", "fabric8's mock server",
          "io/fabric8/kubernetes/client/server/mock/", "fabric8's mock server",
          "org/junit/", "JUnit",
          "org/opentest4j/", "opentest4j",
          "dev/cel/", "CEL");

  private static final List<String> FORBIDDEN_JAR_NAMES =
      List.of("testkit", "junit", "opentest4j", "cel-", "mockwebserver", "kubernetes-server-mock");

  @Test
  void manifestClassPath_isExactlyLib() throws IOException {
    List<String> classPath = manifestClassPath();
    assertThat(classPath).isNotEmpty().allMatch(entry -> entry.startsWith("lib/"));
    assertThat(new TreeSet<>(classPath.stream().map(e -> e.substring("lib/".length())).toList()))
        .as("the jar's Class-Path against target/lib")
        .isEqualTo(new TreeSet<>(libJarNames()));
  }

  @Test
  void lib_holdsNoTestArtifacts() throws IOException {
    for (String jar : libJarNames()) {
      for (String forbidden : FORBIDDEN_JAR_NAMES) {
        assertThat(jar).as("lib/ must not hold " + forbidden).doesNotContain(forbidden);
      }
    }
  }

  @Test
  void operatorJarAndLib_holdNoTestClasses() throws IOException {
    List<Path> jars = new ArrayList<>();
    jars.add(TARGET.resolve("podset-operator.jar"));
    for (String name : libJarNames()) {
      jars.add(TARGET.resolve("lib").resolve(name));
    }
    List<String> found = new ArrayList<>();
    for (Path jar : jars) {
      try (JarFile file = new JarFile(jar.toFile())) {
        file.stream()
            .map(entry -> entry.getName())
            .forEach(
                name ->
                    FORBIDDEN_CLASSES.forEach(
                        (prefix, what) -> {
                          if (name.startsWith(prefix)) {
                            found.add(jar.getFileName() + " holds " + what + ": " + name);
                          }
                        }));
      }
    }
    assertThat(found).as("test classes on the operator's runtime class path").isEmpty();
  }

  private static List<String> manifestClassPath() throws IOException {
    Path jar = TARGET.resolve("podset-operator.jar");
    assertThat(jar).as("the packaged operator (run in the integration-test phase)").exists();
    try (JarFile file = new JarFile(jar.toFile())) {
      String classPath = file.getManifest().getMainAttributes().getValue("Class-Path");
      assertThat(classPath).as("Class-Path in the manifest").isNotBlank();
      return Arrays.stream(classPath.trim().split("\\s+")).toList();
    }
  }

  private static List<String> libJarNames() throws IOException {
    Path lib = TARGET.resolve("lib");
    assertThat(lib).as("target/lib, copied at prepare-package").isDirectory();
    try (Stream<Path> files = Files.list(lib)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).toList();
    }
  }
}
