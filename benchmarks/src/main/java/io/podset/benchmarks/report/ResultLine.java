package io.podset.benchmarks.report;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One measured value: {@code RESULT <figure> <contender> <value> <unit>} in the macro harnesses'
 * output. A figure measured several times has several lines; the report takes their median.
 *
 * @param figure dotted figure name such as {@code workqueue.cycle}
 * @param contender {@code ours} or a peer's name
 * @param value the measurement
 * @param unit its unit; one ending in {@code /s} is better when higher, any other when lower
 */
public record ResultLine(String figure, String contender, double value, String unit) {

  private static final String PREFIX = "RESULT ";

  /** Validates the fields. */
  public ResultLine {
    requireWord(figure, "figure");
    requireWord(contender, "contender");
    requireWord(unit, "unit");
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("value must be finite: " + value);
    }
  }

  /** Whether a higher value is better in this unit (rates), rather than a lower one. */
  public boolean higherIsBetter() {
    return unit.endsWith("/s");
  }

  /** The line as the harnesses print it. */
  public String format() {
    return String.format(Locale.ROOT, "%s%s %s %s %s", PREFIX, figure, contender, value, unit);
  }

  /**
   * Parses a line printed by {@link #format()}; other lines (logs, headers) are not results.
   *
   * @throws IllegalArgumentException if the line starts like a result but is malformed
   */
  public static Optional<ResultLine> parse(String line) {
    Objects.requireNonNull(line, "line");
    if (!line.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = line.substring(PREFIX.length()).trim().split("\\s+");
    if (parts.length != 4) {
      throw new IllegalArgumentException(
          "a result line needs figure, contender, value and unit: '" + line + "'");
    }
    try {
      return Optional.of(
          new ResultLine(parts[0], parts[1], Double.parseDouble(parts[2]), parts[3]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("value is not a number in: '" + line + "'", e);
    }
  }

  private static void requireWord(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank() || value.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(name + " must be one non-blank word: '" + value + "'");
    }
  }
}
