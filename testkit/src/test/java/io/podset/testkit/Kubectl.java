package io.podset.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl, the real client nobody here wrote, run against a kubeconfig for tests. */
final class Kubectl {

  /** What a finished kubectl printed (stdout and stderr together) and its exit code. */
  record Result(int exitCode, String output) {}

  private final Path binary;
  private final Path kubeconfig;
  private final Path cacheDir;

  private Kubectl(Path binary, Path kubeconfig, Path cacheDir) {
    this.binary = binary;
    this.kubeconfig = kubeconfig;
    this.cacheDir = cacheDir;
  }

  /**
   * kubectl from /usr/bin or the PATH, with {@code kubeconfig} and its discovery cache in {@code
   * cacheDir}.
   *
   * @throws AssertionError if there is no kubectl: the tests need one
   */
  static Kubectl using(Path kubeconfig, Path cacheDir) {
    List<Path> candidates = new ArrayList<>();
    candidates.add(Path.of("/usr/bin/kubectl"));
    for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        candidates.add(Path.of(entry, "kubectl"));
      }
    }
    Path binary =
        candidates.stream()
            .filter(Files::isExecutable)
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "kubectl is required for these tests and was not found in /usr/bin or"
                            + " PATH"));
    return new Kubectl(binary, kubeconfig, cacheDir);
  }

  /** The command line that runs kubectl with {@code args}. */
  List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.add("--cache-dir=" + cacheDir);
    command.add("--request-timeout=30s");
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Runs kubectl to completion and returns what it printed and its exit code. Its output goes to a
   * file, not a pipe, so the 60-s bound holds even when kubectl hangs without printing.
   */
  Result run(String... args) {
    Path output = null;
    try {
      output = Files.createTempFile("kubectl-", ".out");
      Process process =
          new ProcessBuilder(command(args))
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "kubectl "
                + String.join(" ", args)
                + " did not finish in 60 s; it printed: "
                + Files.readString(output));
      }
      return new Result(process.exitValue(), Files.readString(output));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
