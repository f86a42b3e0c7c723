package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the commands a user types (kubectl, mvn) and fails with their output when they fail. */
final class Processes {

  private Processes() {}

  /** Runs {@code command} in {@code dir}; returns its standard output. */
  static String run(Path dir, Duration timeout, List<String> command) {
    return run(dir, Map.of(), timeout, command);
  }

  /** Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment. */
  static String run(Path dir, Map<String, String> env, Duration timeout, List<String> command) {
    Result result = exec(dir, env, timeout, command);
    assertThat(result.exit() == 0)
        .as(
            "%s in %s %s:%n%s%n%s",
            command,
            dir,
            result.exit() < 0 ? "did not end within " + timeout : "exited with " + result.exit(),
            tail(result.stdout()),
            tail(result.stderr()))
        .isTrue();
    return result.stdout();
  }

  /** How a command ended: its exit status (-1 when it timed out and was killed) and output. */
  record Result(int exit, String stdout, String stderr) {}

  /** Runs {@code command} and returns how it ended, whatever its exit status. */
  static Result exec(Path dir, Map<String, String> env, Duration timeout, List<String> command) {
    try {
      Path out = Files.createTempFile("archetype-it", ".out");
      Path err = Files.createTempFile("archetype-it", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!exited) {
        process.destroyForcibly();
        process.waitFor();
      }
      Result result =
          new Result(
              exited ? process.exitValue() : -1,
              Files.readString(out, StandardCharsets.UTF_8),
              Files.readString(err, StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running " + command, e);
    }
  }

  /** The last lines of a long output (Maven's end says what failed). */
  static String tail(String text) {
    List<String> lines = text.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
