package io.podset.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scale benchmark's report ({@code run.sh scale}): our figures at each size, each also per
 * object (per PodSet, per pod), and how the cost per object at the largest size compares with the
 * smallest: a cost that grows linearly with the work has a ratio near 1. There are no peers.
 *
 * <p>A value measured outside the conditions it needs ({@link Validity}) prints as {@code invalid},
 * its reasons listed under the table, and a ratio with an invalid end is invalid too. Usage: {@code
 * ScaleReport <raw dir> <markdown file> <title>}.
 */
public final class ScaleReport {

  /** Figures that end in a size label: {@code .1000} or {@code .10k}. */
  private static final Pattern SIZED = Pattern.compile("(.+)\\.(\\d+)(k?)");

  private static final Pattern LOAD = Pattern.compile("load average ([0-9.]+)");
  private static final String OURS = "ours";

  /** How a column relates to the objects: a total, a total shown per object too, or per object. */
  enum Kind {
    TOTAL,
    TOTAL_AND_PER_OBJECT,
    PER_OBJECT
  }

  /**
   * One column: a figure at each size, shown as {@code value * factor}; for {@link
   * Kind#TOTAL_AND_PER_OBJECT} also per object ({@code value * perObjectFactor / size}). The cost
   * per object of the per-object kinds is compared between sizes; a goal bounds the ratio of the
   * cost at the largest size to that at the smallest.
   */
  record Column(
      String figure,
      Kind kind,
      String heading,
      double factor,
      String perObjectHeading,
      double perObjectFactor,
      Optional<Double> maxGrowth) {

    static Column total(String figure, String heading) {
      return new Column(figure, Kind.TOTAL, heading, 1, null, 1, Optional.empty());
    }

    static Column perObject(String figure, String heading) {
      return new Column(figure, Kind.PER_OBJECT, heading, 1, null, 1, Optional.empty());
    }

    static Column both(
        String figure,
        String heading,
        double factor,
        String perObjectHeading,
        double perObjectFactor,
        Double maxGrowth) {
      return new Column(
          figure,
          Kind.TOTAL_AND_PER_OBJECT,
          heading,
          factor,
          perObjectHeading,
          perObjectFactor,
          Optional.ofNullable(maxGrowth));
    }

    /** The cost per object of a value measured at {@code size}. */
    double perObject(double value, long size) {
      return kind == Kind.TOTAL_AND_PER_OBJECT ? value / size : value;
    }
  }

  /** One table: the columns of one benchmark, whose sizes count {@code objects}. */
  record Table(String title, String objects, List<Column> columns) {}

  /** The bound on the growth of the per-PodSet time and heap from 1k to 10k PodSets. */
  static final double LINEAR = 1.2;

  static final List<Table> TABLES =
      List.of(
          new Table(
              "Operator converging N PodSets x 3 pods",
              "PodSets",
              List.of(
                  Column.both("operator.converge_time", "time ms", 1, "ms/PodSet", 1, LINEAR),
                  Column.both(
                      "operator.converge_api_calls", "API calls", 1, "calls/PodSet", 1, null),
                  Column.total("operator.converge_conflicts", "409s"),
                  Column.both(
                      "operator.converge_heap",
                      "heap MB",
                      1.0 / (1 << 20),
                      "KB/PodSet",
                      1.0 / 1024,
                      LINEAR),
                  Column.both("operator.converge_cpu", "CPU ms", 1, "CPU ms/PodSet", 1, null))),
          new Table(
              "Operator's pod informer syncing N pods",
              "pods",
              List.of(
                  Column.both("informer.operator_sync_time", "sync ms", 1, "µs/pod", 1000, null),
                  Column.both("informer.operator_sync_cpu", "CPU ms", 1, "CPU µs/pod", 1000, null),
                  Column.total("informer.operator_api_calls", "API calls"),
                  Column.perObject("informer.operator_cache_per_pod", "operator heap B/pod"),
                  Column.total("informer.operator_peak_heap", "peak heap MB"),
                  Column.perObject("apiserver.stored_per_object", "server heap B/pod"))));

  /** The operator's cached pod may cost at most this many bytes (issue 22). */
  static final double MAX_CACHE_PER_POD = 1.5 * 1024;

  private ScaleReport() {}

  /** Reads, prints and writes; see the class documentation. */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: ScaleReport <raw dir> <markdown file> <title>");
    }
    Path raw = Path.of(args[0]);
    List<Validity.Sample> samples = Report.read(raw);
    Path meta = raw.resolve("meta.md");
    String header = Files.exists(meta) ? Files.readString(meta) : "";
    Files.writeString(Path.of(args[1]), markdown(args[2], header, samples), StandardCharsets.UTF_8);
    // The verdict first: a reader who stops at the first line is not misled.
    System.out.println(verdict(samples));
    invalid(samples).forEach(i -> System.out.println("# invalid: " + i));
    lines(samples).forEach(System.out::println);
  }

  /** One line: every value valid, or how many are not. */
  static String verdict(List<Validity.Sample> samples) {
    int invalid = invalid(samples).size();
    return invalid == 0
        ? "# validity: every value measured under the conditions it needs"
        : "# validity: "
            + invalid
            + " values INVALID (measured outside the conditions they need; printed as invalid)";
  }

  /** The growth of each column with a goal or a per-object value, and the cache goal. */
  static List<String> lines(List<Validity.Sample> samples) {
    List<String> lines = new ArrayList<>();
    for (Table table : TABLES) {
      List<String> sizes = sizes(table, samples);
      for (Column c : table.columns()) {
        growth(c, sizes, samples).ifPresent(lines::add);
        marginal(c, sizes, samples).ifPresent(lines::add);
      }
      if (table.columns().stream().anyMatch(c -> c.figure().startsWith("informer."))) {
        lines.addAll(cacheGoal(sizes, samples));
      }
    }
    return lines;
  }

  /** {@code figure.size: reasons} for every value measured outside its conditions. */
  static List<String> invalid(List<Validity.Sample> samples) {
    List<String> out = new ArrayList<>();
    for (Table table : TABLES) {
      for (String label : sizes(table, samples)) {
        for (Column c : table.columns()) {
          Cell cell = cell(c.figure() + "." + label, samples);
          if (!cell.invalid().isEmpty()) {
            out.add(c.figure() + "." + label + ": " + String.join("; ", cell.invalid()));
          }
        }
      }
    }
    return out;
  }

  /** One measured cell: the median of our samples, or why it is invalid. */
  record Cell(Optional<Double> median, String unit, List<String> invalid) {
    boolean valid() {
      return median.isPresent() && invalid.isEmpty();
    }
  }

  static Cell cell(String figure, List<Validity.Sample> samples) {
    List<ResultLine> ours =
        samples.stream()
            .map(Validity.Sample::result)
            .filter(r -> r.figure().equals(figure) && r.contender().equals(OURS))
            .toList();
    if (ours.isEmpty()) {
      return new Cell(Optional.empty(), "", List.of());
    }
    return new Cell(
        Optional.of(Comparison.median(ours)),
        ours.get(0).unit(),
        Validity.reasons(figure, List.of(OURS), samples));
  }

  /** The size labels of a table's first column present in the samples, smallest first. */
  static List<String> sizes(Table table, List<Validity.Sample> samples) {
    Set<String> labels = new TreeSet<>((a, b) -> Long.compare(size(a), size(b)));
    for (Validity.Sample sample : samples) {
      Matcher m = SIZED.matcher(sample.result().figure());
      if (m.matches() && m.group(1).equals(table.columns().get(0).figure())) {
        labels.add(m.group(2) + m.group(3));
      }
    }
    return List.copyOf(labels);
  }

  /** {@code 1000} for {@code 1000}, 10000 for {@code 10k}. */
  static long size(String label) {
    return label.endsWith("k")
        ? Long.parseLong(label.substring(0, label.length() - 1)) * 1000
        : Long.parseLong(label);
  }

  /**
   * How the per-object cost of a column grows from the smallest size to the largest: {@code figure
   * per object at L/S: ratio}, with the goal's verdict, or {@code invalid (reasons)}.
   */
  static Optional<String> growth(Column column, List<String> sizes, List<Validity.Sample> samples) {
    if (sizes.size() < 2 || column.kind() == Kind.TOTAL) {
      return Optional.empty();
    }
    String small = sizes.get(0);
    String large = sizes.get(sizes.size() - 1);
    Cell first = cell(column.figure() + "." + small, samples);
    Cell last = cell(column.figure() + "." + large, samples);
    if (first.median().isEmpty() || last.median().isEmpty()) {
      return Optional.empty();
    }
    String name = column.figure() + " per object, " + large + " / " + small;
    if (!first.valid() || !last.valid()) {
      Set<String> reasons = new LinkedHashSet<>(first.invalid());
      reasons.addAll(last.invalid());
      return Optional.of(name + ": invalid (" + String.join("; ", reasons) + ")");
    }
    double ratio =
        column.perObject(last.median().orElseThrow(), size(large))
            / column.perObject(first.median().orElseThrow(), size(small));
    String verdict =
        column
            .maxGrowth()
            .map(
                max ->
                    String.format(
                        Locale.ROOT, " (goal ≤ %.1f: %s)", max, ratio <= max ? "met" : "MISSED"))
            .orElse("");
    return Optional.of(String.format(Locale.ROOT, "%s: %.2f%s", name, ratio, verdict));
  }

  /**
   * What each added object costs once the fixed costs are paid, between the two smallest sizes and
   * between the two largest, in the figure's unit per object: {@code figure marginal per object,
   * 1000-3000: X, 3000-10000: Y, ratio Y/X}, or {@code invalid (reasons)}. Fixed costs make the
   * cost per object at a small size look high; the marginal cost does not hide a growth behind
   * them.
   */
  static Optional<String> marginal(
      Column column, List<String> sizes, List<Validity.Sample> samples) {
    if (sizes.size() < 3 || column.kind() != Kind.TOTAL_AND_PER_OBJECT) {
      return Optional.empty();
    }
    List<String> ends =
        List.of(
            sizes.get(0), sizes.get(1), sizes.get(sizes.size() - 2), sizes.get(sizes.size() - 1));
    List<Cell> cells = ends.stream().map(l -> cell(column.figure() + "." + l, samples)).toList();
    if (cells.stream().anyMatch(c -> c.median().isEmpty())) {
      return Optional.empty();
    }
    String name =
        column.figure()
            + " marginal per object, "
            + ends.get(0)
            + "-"
            + ends.get(1)
            + " and "
            + ends.get(2)
            + "-"
            + ends.get(3);
    Set<String> reasons = new LinkedHashSet<>();
    cells.forEach(c -> reasons.addAll(c.invalid()));
    if (!reasons.isEmpty()) {
      return Optional.of(name + ": invalid (" + String.join("; ", reasons) + ")");
    }
    double small = slope(cells.get(0), cells.get(1), ends.get(0), ends.get(1));
    double large = slope(cells.get(2), cells.get(3), ends.get(2), ends.get(3));
    return Optional.of(
        String.format(
            Locale.ROOT,
            "%s: %s, %s %s/object, ratio %.2f",
            name,
            Comparison.number(small),
            Comparison.number(large),
            cells.get(0).unit(),
            large / small));
  }

  private static double slope(Cell from, Cell to, String fromLabel, String toLabel) {
    return (to.median().orElseThrow() - from.median().orElseThrow())
        / (size(toLabel) - size(fromLabel));
  }

  /** The operator's heap per cached pod against {@link #MAX_CACHE_PER_POD}, at each size. */
  static List<String> cacheGoal(List<String> sizes, List<Validity.Sample> samples) {
    List<String> out = new ArrayList<>();
    for (String label : sizes) {
      Cell c = cell("informer.operator_cache_per_pod." + label, samples);
      c.median()
          .ifPresent(
              v ->
                  out.add(
                      String.format(
                          Locale.ROOT,
                          "informer.operator_cache_per_pod.%s: %.0f B (goal ≤ %.0f B: %s)",
                          label,
                          v,
                          MAX_CACHE_PER_POD,
                          v <= MAX_CACHE_PER_POD ? "met" : "MISSED")));
    }
    return out;
  }

  /** The load averages recorded by the quiet-machine checks of a size's figures. */
  static String loads(Table table, String label, List<Validity.Sample> samples) {
    Set<String> loads = new LinkedHashSet<>();
    Set<String> figures = new LinkedHashSet<>();
    table.columns().forEach(c -> figures.add(c.figure() + "." + label));
    for (Validity.Sample sample : samples) {
      if (!figures.contains(sample.result().figure())) {
        continue;
      }
      for (Condition c : sample.conditions()) {
        Matcher m = LOAD.matcher(c.detail());
        if (c.name().equals("quiet_machine") && m.find()) {
          loads.add(m.group(1));
        }
      }
    }
    return String.join(", ", loads);
  }

  /** The page: title, header, one table per benchmark, invalid reasons, then the text lines. */
  static String markdown(String title, String header, List<Validity.Sample> samples) {
    StringBuilder md = new StringBuilder("# Scale benchmark: ").append(title).append("\n\n");
    md.append("**").append(verdict(samples).substring(2)).append("**\n\n");
    if (!header.isBlank()) {
      md.append(header.strip()).append("\n\n");
    }
    for (Table table : TABLES) {
      List<String> sizes = sizes(table, samples);
      if (sizes.isEmpty()) {
        continue;
      }
      md.append("## ").append(table.title()).append("\n\n| ").append(table.objects());
      StringBuilder rule = new StringBuilder("\n|---:");
      for (Column c : table.columns()) {
        md.append(" | ").append(c.heading());
        rule.append("|---:");
        if (c.kind() == Kind.TOTAL_AND_PER_OBJECT) {
          md.append(" | ").append(c.perObjectHeading());
          rule.append("|---:");
        }
      }
      md.append(" | load average before, after |").append(rule).append("|---|\n");
      for (String label : sizes) {
        long size = size(label);
        md.append("| ").append(size);
        for (Column c : table.columns()) {
          Cell cell = cell(c.figure() + "." + label, samples);
          md.append(" | ").append(show(cell, v -> v * c.factor()));
          if (c.kind() == Kind.TOTAL_AND_PER_OBJECT) {
            md.append(" | ").append(show(cell, v -> c.perObject(v, size) * c.perObjectFactor()));
          }
        }
        md.append(" | ").append(loads(table, label, samples)).append(" |\n");
      }
      md.append('\n');
    }
    List<String> invalid = invalid(samples);
    if (!invalid.isEmpty()) {
      md.append("Invalid values and why:\n\n");
      invalid.forEach(i -> md.append("- ").append(i).append('\n'));
    }
    md.append(
        "\nCost per object at the largest size / at the smallest (1: linear), and the marginal"
            + " cost per object between the smallest and the largest sizes:\n\n```\n");
    lines(samples).forEach(l -> md.append(l).append('\n'));
    md.append("```\n");
    return md.toString();
  }

  private static String show(Cell cell, java.util.function.DoubleUnaryOperator scale) {
    if (cell.median().isEmpty()) {
      return "";
    }
    return cell.valid()
        ? Comparison.number(scale.applyAsDouble(cell.median().orElseThrow()))
        : "invalid";
  }
}
