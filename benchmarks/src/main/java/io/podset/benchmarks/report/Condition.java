package io.podset.benchmarks.report;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A condition a figure needs, as checked by the harness that measured it: {@code CONDITION <scope>
 * <name> ok|violated <detail...>} in a result file. It applies to the figures of that file whose
 * whole name matches {@code scope}, or to those of every file when it is in {@value #RUN_FILE}
 * (run-level checks of {@code run.sh}).
 *
 * @param scope regular expression over whole figure names
 * @param name what is checked, one word ({@code server_round_trip}, {@code quiet_machine})
 * @param holds whether the condition held
 * @param detail what was measured against what bound, for the reader
 */
public record Condition(Pattern scope, String name, boolean holds, String detail) {

  /** The raw file whose conditions apply to every file's figures. */
  public static final String RUN_FILE = "conditions.txt";

  private static final String PREFIX = "CONDITION ";

  /** Validates the fields. */
  public Condition {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(detail, "detail");
    if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("name must be one non-blank word: '" + name + "'");
    }
  }

  /** A condition over the figures matching {@code scope}. */
  public static Condition of(String scope, String name, boolean holds, String detail) {
    return new Condition(Pattern.compile(scope), name, holds, detail);
  }

  /** Whether it applies to {@code figure}. */
  public boolean appliesTo(String figure) {
    return scope.matcher(figure).matches();
  }

  /** The line as the harnesses print it. */
  public String format() {
    return PREFIX + scope.pattern() + " " + name + " " + (holds ? "ok" : "violated") + " " + detail;
  }

  /**
   * Parses a line printed by {@link #format()}; other lines are not conditions.
   *
   * @throws IllegalArgumentException if the line starts like a condition but is malformed
   */
  public static Optional<Condition> parse(String line) {
    Objects.requireNonNull(line, "line");
    if (!line.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = line.substring(PREFIX.length()).trim().split("\\s+", 4);
    if (parts.length < 3 || !(parts[2].equals("ok") || parts[2].equals("violated"))) {
      throw new IllegalArgumentException(
          "a condition line needs scope, name, ok|violated and a detail: '" + line + "'");
    }
    return Optional.of(
        of(parts[0], parts[1], parts[2].equals("ok"), parts.length == 4 ? parts[3] : ""));
  }
}
