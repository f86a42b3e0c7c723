package io.podset.testkit.envtest;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A child process whose output goes to a log file; stopped with SIGTERM, then SIGKILL. */
final class ManagedProcess {

  private static final Logger log = LoggerFactory.getLogger(ManagedProcess.class);
  private static final int TAIL_LINES = 40;

  private final String name;
  private final Process process;
  private final Path logFile;

  private ManagedProcess(String name, Process process, Path logFile) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
  }

  /**
   * Starts {@code command} in {@code directory}, stdout and stderr appended to {@code logFile}.
   *
   * @throws ControlPlaneException if the process cannot be started
   */
  static ManagedProcess start(String name, List<String> command, Path directory, Path logFile) {
    return start(name, command, Map.of(), directory, logFile);
  }

  /**
   * {@link #start(String, List, Path, Path)} with {@code environment} added to this process's.
   *
   * @throws ControlPlaneException if the process cannot be started
   */
  static ManagedProcess start(
      String name,
      List<String> command,
      Map<String, String> environment,
      Path directory,
      Path logFile) {
    Objects.requireNonNull(name, "name");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(environment);
    try {
      Process process = builder.start();
      log.debug("started {} (pid {}): {}", name, process.pid(), command);
      return new ManagedProcess(name, process, logFile);
    } catch (IOException e) {
      throw new ControlPlaneException("cannot start " + name + ": " + command.get(0), e);
    }
  }

  String name() {
    return name;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Throws when the process has exited.
   *
   * @throws ControlPlaneException naming the exit code, with the end of the log
   */
  void checkAlive() {
    if (!process.isAlive()) {
      throw new ControlPlaneException(
          name + " exited with code " + process.exitValue() + "; end of its log:\n" + logTail());
    }
  }

  /** The last lines of the log, for error messages. */
  String logTail() {
    Deque<String> tail = new ArrayDeque<>();
    try (Stream<String> lines = Files.lines(logFile, StandardCharsets.UTF_8)) {
      lines.forEach(
          line -> {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
              tail.removeFirst();
            }
          });
    } catch (IOException | UncheckedIOException e) {
      return "(log " + logFile + " unreadable: " + e.getMessage() + ")";
    }
    return String.join("\n", tail);
  }

  /** Sends SIGTERM, waits up to {@code graceMillis}, then kills; waits for the exit. */
  void stop(long graceMillis) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
        log.warn(
            "{} (pid {}) ignored SIGTERM for {} ms; killing it", name, process.pid(), graceMillis);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
