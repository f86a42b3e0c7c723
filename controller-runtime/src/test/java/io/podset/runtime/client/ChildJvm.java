package io.podset.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class's {@code main} run in a JVM of its own, for what a JVM decides once: its compiler flags
 * (C1 only, as operators are deployed) and its class path (which HTTP client fabric8 finds).
 */
public final class ChildJvm {

  private ChildJvm() {}

  /** This JVM's class path, for {@link #run}. */
  public static String classPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * Runs {@code main} with {@code args} in a JVM started with {@code options} and {@code
   * classPath}, without the environment's Kubernetes settings (KUBECONFIG, KUBERNETES_*); expects
   * it to exit with 0 within 60 s and returns its output (standard output and error).
   */
  public static String run(List<String> options, String classPath, Class<?> main, String... args)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.addAll(List.of("-cp", classPath, main.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("KUBERNETES_"));
    builder.environment().remove("KUBECONFIG");
    Process jvm = builder.start();
    String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
    assertThat(jvm.exitValue()).as(output).isZero();
    return output;
  }
}
