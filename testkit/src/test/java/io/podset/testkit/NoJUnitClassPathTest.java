package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The testkit needs no JUnit: its runtime class path (what a consumer's test gets from depending on
 * it, written by the build to {@code target/runtime-class-path.txt}) holds no JUnit or opentest4j
 * jar, and the fake API server with the harness reconciles in a JVM with exactly that class path
 * ({@link HarnessWithoutJUnit}). The extensions are in testkit-junit5.
 */
class NoJUnitClassPathTest {

  private static final Path RUNTIME_CLASS_PATH = Path.of("target", "runtime-class-path.txt");

  private static List<String> runtimeClassPath() throws Exception {
    String line = Files.readString(RUNTIME_CLASS_PATH, StandardCharsets.UTF_8).strip();
    return Arrays.asList(line.split(File.pathSeparator));
  }

  @Test
  void runtimeClassPath_holdsNoJUnit() throws Exception {
    List<String> jars = runtimeClassPath();
    assertThat(jars).anyMatch(jar -> jar.contains("vertx-core")); // it is the real list
    assertThat(jars)
        .noneMatch(jar -> Path.of(jar).getFileName().toString().matches("(junit|opentest4j).*"));
  }

  @Test
  void serverAndHarness_workWithoutJUnit() throws Exception {
    List<String> classPath = new ArrayList<>();
    classPath.add(Path.of("target", "classes").toString());
    classPath.add(Path.of("target", "test-classes").toString());
    classPath.addAll(runtimeClassPath());
    Path output = Files.createTempFile("harness-without-junit", ".log");
    try {
      Process java =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  String.join(File.pathSeparator, classPath),
                  HarnessWithoutJUnit.class.getName())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      boolean exited = java.waitFor(120, TimeUnit.SECONDS);
      if (!exited) {
        java.destroyForcibly();
      }
      String log = Files.readString(output);
      assertThat(exited).as("exited within 120 s; output:%n%s", log).isTrue();
      assertThat(java.exitValue()).as("exit status; output:%n%s", log).isZero();
      assertThat(log).contains("reconciled without JUnit: [default/probe");
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
