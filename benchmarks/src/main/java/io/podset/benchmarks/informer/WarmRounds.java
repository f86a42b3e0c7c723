package io.podset.benchmarks.informer;

import io.podset.benchmarks.report.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Timed rounds of the same work in one JVM until it is warm, then measured ones: what the code
 * costs once the JIT has compiled it, rather than what a fresh JVM pays.
 *
 * <p>The warm-up rule: rounds until two consecutive rounds took times within {@value
 * #SETTLED_PERCENT}% of each other (the longer at most 1.1x the shorter), at most a given number of
 * rounds; if they never do, the outcome says the JVM did not settle ({@link Outcome#settled()}),
 * and the measured rounds follow anyway (their figure is then invalid, not missing).
 */
final class WarmRounds {

  /** How far apart, in percent of the shorter, two consecutive warm rounds may be. */
  static final int SETTLED_PERCENT = 10;

  /** One round of the work, timed. */
  @FunctionalInterface
  interface Round {
    /** Runs the round; returns its wall time in milliseconds. */
    double millis() throws Exception;
  }

  /**
   * What the rounds took.
   *
   * @param warmUp the warm-up rounds' times (ms), in order
   * @param measured the measured rounds' times (ms), in order
   * @param settled whether the last two warm-up rounds were within {@value #SETTLED_PERCENT}%
   */
  record Outcome(List<Double> warmUp, List<Double> measured, boolean settled) {
    Outcome {
      warmUp = List.copyOf(warmUp);
      measured = List.copyOf(measured);
      if (measured.isEmpty()) {
        throw new IllegalArgumentException("no measured round");
      }
    }

    /** The median over the measured rounds of {@code objects} per second of round time. */
    double medianRate(int objects) {
      double[] rates =
          measured.stream().mapToDouble(ms -> objects * 1000.0 / ms).sorted().toArray();
      int n = rates.length;
      return n % 2 == 1 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2.0;
    }

    /**
     * The {@code client_warm} condition of {@code figure} (that figure only): whether the warm-up
     * rounds settled, with {@link #describe()} as its detail.
     */
    Condition condition(String figure) {
      return Condition.of(Pattern.quote(figure), "client_warm", settled, describe());
    }

    /** For the reader of the raw output: whether and when it settled, and every round's time. */
    String describe() {
      int n = warmUp.size();
      String last =
          n < 2
              ? "one warm-up round"
              : String.format(
                  Locale.ROOT, "last two %.0f and %.0f ms", warmUp.get(n - 2), warmUp.get(n - 1));
      return (settled
              ? "settled after " + n + " warm-up rounds (" + last + ", within "
              : "not settled after " + n + " warm-up rounds (" + last + ", not within ")
          + SETTLED_PERCENT
          + "%); warm-up ms "
          + millis(warmUp)
          + ", measured ms "
          + millis(measured);
    }

    private static String millis(List<Double> times) {
      return times.stream()
          .map(t -> String.format(Locale.ROOT, "%.0f", t))
          .collect(Collectors.joining(" ", "[", "]"));
    }
  }

  private WarmRounds() {}

  /**
   * Warm-up rounds by the rule above, at most {@code maxWarmUp}, then {@code measured} rounds.
   *
   * @throws IllegalArgumentException if {@code maxWarmUp} is below 2 (the rule compares two rounds)
   *     or {@code measured} below 1
   */
  static Outcome run(Round round, int maxWarmUp, int measured) throws Exception {
    Objects.requireNonNull(round, "round");
    if (maxWarmUp < 2) {
      throw new IllegalArgumentException(
          "warm-up rounds at most must be at least 2 (the rule compares two rounds): " + maxWarmUp);
    }
    if (measured < 1) {
      throw new IllegalArgumentException("measured rounds must be at least 1: " + measured);
    }
    List<Double> warmUp = new ArrayList<>();
    boolean settled = false;
    while (!settled && warmUp.size() < maxWarmUp) {
      warmUp.add(round.millis());
      int n = warmUp.size();
      settled = n >= 2 && within(warmUp.get(n - 2), warmUp.get(n - 1));
    }
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < measured; i++) {
      times.add(round.millis());
    }
    return new Outcome(warmUp, times, settled);
  }

  /** Whether the longer of two times is at most {@value #SETTLED_PERCENT}% above the shorter. */
  static boolean within(double a, double b) {
    return Math.max(a, b) * 100 <= Math.min(a, b) * (100 + SETTLED_PERCENT);
  }
}
