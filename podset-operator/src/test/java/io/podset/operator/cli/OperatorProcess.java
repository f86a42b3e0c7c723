package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.Eventually;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * An operator running as a child process, with its log: waits that fail fast when it dies (public:
 * the playground's tests use it through this module's test jar).
 */
public record OperatorProcess(Process process, Path log) {

  private static final Duration WAIT = Duration.ofSeconds(90);
  // Conditions run kubectl (a process) or scrape HTTP: poll, do not spin.
  private static final Eventually EVENTUALLY =
      Eventually.within(WAIT).polling(Duration.ofMillis(200));

  /**
   * Waits until {@code condition} holds while the operator stays alive; a failure shows its log.
   */
  public void await(String what, BooleanSupplier condition) {
    EVENTUALLY
        .reporting(() -> "operator log:\n" + logText())
        .until(
            what,
            () -> {
              if (condition.getAsBoolean()) {
                return true;
              }
              assertThat(process.isAlive()).as("operator alive\n" + logText()).isTrue();
              return false;
            });
  }

  public String logText() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
