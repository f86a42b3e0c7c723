package io.podset.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Our median against one peer's median for one figure.
 *
 * @param figure the figure
 * @param peer the peer's name
 * @param ours our median
 * @param theirs the peer's median
 * @param unit the unit of both
 * @param oursSamples how many samples our median was taken from
 * @param theirSamples how many samples the peer's median was taken from
 * @param goal the goal that applies, if any
 */
public record Comparison(
    String figure,
    String peer,
    double ours,
    double theirs,
    String unit,
    int oursSamples,
    int theirSamples,
    Optional<Goal> goal) {

  /** Validates the fields. */
  public Comparison {
    Objects.requireNonNull(figure, "figure");
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(goal, "goal");
  }

  /**
   * How much better we are: above 1 when ours is better, whichever direction the unit has; 1 when
   * both are equal (zero conflicts each, say), infinite when ours is zero and the peer's is not.
   */
  public double ratio() {
    if (ours == theirs) {
      return 1.0;
    }
    boolean higher = unit.endsWith("/s");
    return higher ? ours / theirs : theirs / ours;
  }

  /** Empty without a goal; otherwise whether the ratio reaches it. */
  public Optional<Boolean> met() {
    return goal.map(g -> ratio() >= g.minRatio());
  }

  /** {@code NAME: ours=X peer=Y ratio=Z unit=U}. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "%s: ours=%s peer=%s ratio=%.2f unit=%s",
        name(),
        number(ours),
        number(theirs),
        ratio(),
        unit);
  }

  /** {@code figure[peer]}. */
  public String name() {
    return figure + "[" + peer + "]";
  }

  @Override
  public String toString() {
    return line();
  }

  /** A number with three or four significant digits, without exponent. */
  public static String number(double value) {
    double abs = Math.abs(value);
    if (abs >= 1000) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (abs >= 100) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (abs >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    return String.format(Locale.ROOT, "%.3g", value);
  }

  /**
   * Compares, for every figure that {@code ours} has, our median with each peer's median, in figure
   * order then peer order.
   *
   * @throws IllegalArgumentException if a figure is reported in two units
   */
  public static List<Comparison> of(List<ResultLine> samples, List<Goal> goals) {
    Map<String, Map<String, List<ResultLine>>> byFigure = new TreeMap<>();
    for (ResultLine s : samples) {
      byFigure
          .computeIfAbsent(s.figure(), f -> new TreeMap<>())
          .computeIfAbsent(s.contender(), c -> new ArrayList<>())
          .add(s);
    }
    List<Comparison> out = new ArrayList<>();
    for (var figure : byFigure.entrySet()) {
      Map<String, List<ResultLine>> contenders = new LinkedHashMap<>(figure.getValue());
      List<ResultLine> ours = contenders.remove("ours");
      if (ours == null) {
        continue;
      }
      String unit = unitOf(figure.getKey(), ours);
      for (var peer : contenders.entrySet()) {
        String peerUnit = unitOf(figure.getKey(), peer.getValue());
        if (!peerUnit.equals(unit)) {
          throw new IllegalArgumentException(
              figure.getKey() + " is in " + unit + " for ours but " + peerUnit + " for " + peer);
        }
        out.add(
            new Comparison(
                figure.getKey(),
                peer.getKey(),
                median(ours),
                median(peer.getValue()),
                unit,
                ours.size(),
                peer.getValue().size(),
                Goal.find(goals, figure.getKey(), peer.getKey())));
      }
    }
    return out;
  }

  static double median(List<ResultLine> samples) {
    double[] values = samples.stream().mapToDouble(ResultLine::value).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
  }

  private static String unitOf(String figure, List<ResultLine> samples) {
    String unit = samples.get(0).unit();
    for (ResultLine s : samples) {
      if (!s.unit().equals(unit)) {
        throw new IllegalArgumentException(
            figure + " of " + s.contender() + " mixes units " + unit + " and " + s.unit());
      }
    }
    return unit;
  }
}
