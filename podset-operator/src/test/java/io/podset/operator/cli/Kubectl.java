package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the installed {@code kubectl} against one kubeconfig, for end-to-end tests (public: the
 * playground's tests use it through this module's test jar).
 */
public final class Kubectl {

  /** What one invocation printed (stdout and stderr together) and its exit status. */
  public record Outcome(int exitStatus, String output) {}

  private final Path kubeconfig;

  public Kubectl(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  /** Runs kubectl and asserts it succeeded; returns its output. */
  public String run(String stdin, String... args) {
    Outcome outcome = attempt(stdin, args);
    assertThat(outcome.exitStatus())
        .as("kubectl " + String.join(" ", args) + "\n" + outcome.output())
        .isZero();
    return outcome.output();
  }

  /**
   * Runs kubectl, whatever its exit status. Its output goes to a file, not a pipe, so the 60-s
   * bound holds even when kubectl hangs without printing.
   */
  public Outcome attempt(String stdin, String... args) {
    List<String> command =
        new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    Path output = null;
    try {
      output = Files.createTempFile("kubectl-", ".out");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (stdin != null) {
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      process.getOutputStream().close();
      boolean finished = process.waitFor(60, TimeUnit.SECONDS);
      if (!finished) {
        process.destroyForcibly();
      }
      assertThat(finished)
          .as(
              String.join(" ", command) + " did not finish in 60 s; it printed: %s",
              Files.readString(output))
          .isTrue();
      return new Outcome(process.exitValue(), Files.readString(output));
    } catch (IOException e) {
      throw new IllegalStateException(
          "kubectl must be installed to run this test: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      if (output != null) {
        output.toFile().delete();
      }
    }
  }
}
