package io.podset.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The converge figures against the floor measured in the same run: the {@value #FLOOR} contender
 * makes the operator's writes for each PodSet from a plain client with the operator's write
 * concurrency and no controller, so its converge time is the least the fake server allows for that
 * mix, and its write rate the server's capacity for it. Each other contender's converge throughput
 * is printed as a fraction of the floor's (floor time / contender time: 1 converges as fast as the
 * server takes the writes), never as a peer ratio.
 *
 * <p>A fraction needs the conditions of both converge times ({@link Validity}); the floor's write
 * rate those of its own figure.
 */
final class Floor {

  /** The contender that measures the floor. */
  static final String FLOOR = "floor";

  /**
   * Issue 22's goal for ours: at least half the floor's converge throughput (a controller also
   * waits for readiness events and confirms each PodSet with a read; benchmarks README, "Converge
   * goals").
   */
  static final double GOAL = 0.5;

  private static final Pattern CONVERGE_TIME = Pattern.compile("operator\\.converge_time\\.(.+)");
  private static final String WRITE_RATE = "operator.converge_write_rate.";

  /**
   * One contender's converge throughput as a fraction of the floor's, for one size.
   *
   * @param figure the converge time figure ({@code operator.converge_time.<label>})
   * @param contender the contender
   * @param millis the contender's median converge time
   * @param floorMillis the floor's median converge time
   * @param floorWrites the floor's median write rate (writes/s); NaN if not measured
   * @param reasons why the fraction is invalid; empty when valid
   * @param writeReasons why the floor's write rate is invalid; empty when valid
   */
  record Fraction(
      String figure,
      String contender,
      double millis,
      double floorMillis,
      double floorWrites,
      List<String> reasons,
      List<String> writeReasons) {

    Fraction {
      reasons = List.copyOf(reasons);
      writeReasons = List.copyOf(writeReasons);
    }

    /** The contender's throughput over the floor's. */
    double fraction() {
      return floorMillis / millis;
    }

    boolean valid() {
      return reasons.isEmpty();
    }

    /** Whether ours reaches {@link #GOAL}; empty for other contenders and invalid fractions. */
    Optional<Boolean> met() {
      return valid() && contender.equals("ours")
          ? Optional.of(fraction() >= GOAL)
          : Optional.empty();
    }

    /** {@code operator.converge_floor.<label>[contender]: 0.62 of the floor (...)} or invalid. */
    String line() {
      String name = "operator.converge_floor." + label() + "[" + contender + "]";
      if (!valid()) {
        return name + ": invalid (" + String.join("; ", reasons) + ")";
      }
      return String.format(
              Locale.ROOT,
              "%s: %.2f of the floor (time=%s ms, floor=%s ms, floor writes=%s)",
              name,
              fraction(),
              Comparison.number(millis),
              Comparison.number(floorMillis),
              writes())
          + met()
              .map(m -> String.format(Locale.ROOT, " goal >= %.2f %s", GOAL, m ? "met" : "missed"))
              .orElse("");
    }

    /** The floor's write rate with its unit, or invalid with the reasons. */
    String writes() {
      if (Double.isNaN(floorWrites)) {
        return "not measured";
      }
      return writeReasons.isEmpty()
          ? Comparison.number(floorWrites) + " writes/s"
          : "invalid (" + String.join("; ", writeReasons) + ")";
    }

    String label() {
      return figure.substring("operator.converge_time.".length());
    }
  }

  private Floor() {}

  /**
   * For every converge time the floor measured, each other contender's fraction, in figure order
   * then contender order.
   */
  static List<Fraction> of(List<Validity.Sample> samples) {
    Map<String, Map<String, List<ResultLine>>> times = new TreeMap<>();
    Map<String, List<ResultLine>> floorWrites = new TreeMap<>();
    for (Validity.Sample sample : samples) {
      ResultLine r = sample.result();
      if (CONVERGE_TIME.matcher(r.figure()).matches()) {
        times
            .computeIfAbsent(r.figure(), f -> new TreeMap<>())
            .computeIfAbsent(r.contender(), c -> new ArrayList<>())
            .add(r);
      } else if (r.figure().startsWith(WRITE_RATE) && r.contender().equals(FLOOR)) {
        floorWrites.computeIfAbsent(r.figure(), f -> new ArrayList<>()).add(r);
      }
    }
    List<Fraction> out = new ArrayList<>();
    for (var figure : times.entrySet()) {
      List<ResultLine> floor = figure.getValue().get(FLOOR);
      if (floor == null) {
        continue;
      }
      String label = figure.getKey().substring("operator.converge_time.".length());
      String writeFigure = WRITE_RATE + label;
      List<ResultLine> writes = floorWrites.get(writeFigure);
      double writeRate = writes == null ? Double.NaN : Comparison.median(writes);
      List<String> writeReasons =
          writes == null ? List.of() : Validity.reasons(writeFigure, List.of(FLOOR), samples);
      for (var contender : figure.getValue().entrySet()) {
        if (contender.getKey().equals(FLOOR)) {
          continue;
        }
        out.add(
            new Fraction(
                figure.getKey(),
                contender.getKey(),
                Comparison.median(contender.getValue()),
                Comparison.median(floor),
                writeRate,
                Validity.reasons(figure.getKey(), List.of(contender.getKey(), FLOOR), samples),
                writeReasons));
      }
    }
    return out;
  }

  /** The Markdown section: one row per size and contender. */
  static String markdown(List<Fraction> fractions) {
    if (fractions.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("## Converge against the server's write floor\n\n");
    md.append("The `floor` contender makes the operator's writes for each PodSet (its pods, the ")
        .append("status that shows them Ready, one Event) from a plain client with the ")
        .append("operator's write concurrency, no controller: the fake server's capacity for ")
        .append("that mix, measured in the same run. Fraction = the contender's converge ")
        .append("throughput over the floor's (1: as fast as the server takes the writes).\n\n");
    md.append(
        "| Figure | Contender | Converge ms | Floor ms | Floor writes/s | Fraction | Goal |\n");
    md.append("|---|---|---:|---:|---:|---:|:---:|\n");
    for (Fraction f : fractions) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s |%n",
              f.figure(),
              f.contender(),
              Comparison.number(f.millis()),
              Comparison.number(f.floorMillis()),
              f.writes(),
              f.valid()
                  ? String.format(Locale.ROOT, "%.2f", f.fraction())
                  : "invalid (" + String.join("; ", f.reasons()) + ")",
              f.met()
                  .map(m -> String.format(Locale.ROOT, "≥ %.2f: %s", GOAL, m ? "yes" : "**no**"))
                  .orElse("")));
    }
    return md.append('\n').toString();
  }
}
