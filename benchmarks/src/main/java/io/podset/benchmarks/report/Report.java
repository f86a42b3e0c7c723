package io.podset.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads a directory of raw benchmark output, prints one line per figure and peer ({@code NAME:
 * ours=X peer=Y ratio=Z unit=U}, ratio above 1 when ours is better) and writes a Markdown table.
 *
 * <p>Files: {@code *.json} are JMH results, {@code *.go.txt} are {@code go test -bench} output, any
 * other {@code *.txt} holds {@link ResultLine}s among other output, and {@code meta.md} (optional)
 * is copied above the table. Usage: {@code Report <raw dir> <markdown file> <title>}.
 */
public final class Report {

  private Report() {}

  /** Reads, prints and writes. */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: Report <raw dir> <markdown file> <title>");
    }
    Path raw = Path.of(args[0]);
    List<Validity.Sample> samples = read(raw);
    List<Judged> judged = judge(samples);
    List<Floor.Fraction> floor = Floor.of(samples);
    String verdict = verdict(judged, floor);
    // The verdict on the run first: a reader who stops at the first line is not misled.
    System.out.println(verdict);
    judged.forEach(j -> System.out.println(j.line()));
    floor.forEach(f -> System.out.println(f.line()));
    long met =
        judged.stream().filter(j -> j.valid() && j.c().met().orElse(false)).count()
            + floor.stream().filter(f -> f.met().orElse(false)).count();
    long missed =
        judged.stream().filter(j -> j.valid() && !j.c().met().orElse(true)).count()
            + floor.stream().filter(f -> !f.met().orElse(true)).count();
    long invalidGoals =
        judged.stream().filter(j -> !j.valid() && j.c().goal().isPresent()).count()
            + floor.stream().filter(f -> !f.valid() && f.contender().equals("ours")).count();
    System.out.printf(
        Locale.ROOT,
        "# goals: %d met, %d missed, %d not judged (invalid figures)%n",
        met,
        missed,
        invalidGoals);
    judged.stream()
        .filter(j -> j.valid() && !j.c().met().orElse(true))
        .forEach(
            j ->
                System.out.printf(
                    Locale.ROOT,
                    "# missed: %s ratio %.2f < %.2f%n",
                    j.c().name(),
                    j.c().ratio(),
                    j.c().goal().orElseThrow().minRatio()));
    floor.stream()
        .filter(f -> !f.met().orElse(true))
        .forEach(
            f ->
                System.out.printf(
                    Locale.ROOT,
                    "# missed: operator.converge_floor.%s[ours] %.2f of the floor < %.2f%n",
                    f.label(),
                    f.fraction(),
                    Floor.GOAL));
    Path meta = raw.resolve("meta.md");
    String header = Files.exists(meta) ? Files.readString(meta) : "";
    Files.writeString(
        Path.of(args[1]), markdown(args[2], header, judged, floor), StandardCharsets.UTF_8);
    if (verdict.contains("INVALID")) {
      System.err.println(verdict);
    }
  }

  /** A comparison and why it is invalid (empty: valid). */
  record Judged(Comparison c, List<String> reasons) {
    boolean valid() {
      return reasons.isEmpty();
    }

    /** The comparison's line, or {@code NAME: invalid (reasons)} instead of a ratio. */
    String line() {
      return valid() ? c.line() : c.name() + ": invalid (" + String.join("; ", reasons) + ")";
    }
  }

  /**
   * Every comparison of the samples, judged by {@link Validity}; the {@link Floor} contender is no
   * peer: its figures are the floor the others are measured against ({@link Floor#of}).
   */
  static List<Judged> judge(List<Validity.Sample> samples) {
    List<ResultLine> results =
        samples.stream()
            .map(Validity.Sample::result)
            .filter(r -> !r.contender().equals(Floor.FLOOR))
            .toList();
    return Comparison.of(results, Goal.ISSUE_10).stream()
        .map(c -> new Judged(c, Validity.reasons(c.figure(), c.peer(), samples)))
        .toList();
  }

  /** One line saying whether every figure is valid, or how many are not. */
  static String verdict(List<Judged> judged) {
    return verdict(judged, List.of());
  }

  /** The same, counting the fractions of the floor as figures too. */
  static String verdict(List<Judged> judged, List<Floor.Fraction> floor) {
    long invalid =
        judged.stream().filter(j -> !j.valid()).count()
            + floor.stream().filter(f -> !f.valid()).count();
    long total = judged.size() + floor.size();
    return invalid == 0
        ? "# validity: all " + total + " figures measured under the conditions they need"
        : String.format(
            Locale.ROOT,
            "# validity: %d of %d figures INVALID (measured outside the conditions they need;"
                + " printed as invalid, not as ratios)",
            invalid,
            total);
  }

  /**
   * Every sample in the directory's result files, each with the conditions checked in its file and
   * in {@value Condition#RUN_FILE}.
   */
  static List<Validity.Sample> read(Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.sorted().toList();
    }
    Path runFile = dir.resolve(Condition.RUN_FILE);
    List<Condition> runConditions =
        Files.exists(runFile) ? conditions(Files.readAllLines(runFile)) : List.of();
    List<Validity.Sample> samples = new ArrayList<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      List<ResultLine> results;
      List<Condition> conditions = new ArrayList<>(runConditions);
      if (name.endsWith(".json")) {
        results = RawResults.jmhJson(Files.readString(file));
      } else if (name.endsWith(".go.txt")) {
        results = RawResults.goBench(Files.readAllLines(file));
      } else if (name.endsWith(".txt")) {
        List<String> lines = Files.readAllLines(file);
        results = RawResults.resultLines(lines);
        conditions.addAll(conditions(lines));
      } else {
        continue;
      }
      for (ResultLine result : results) {
        samples.add(new Validity.Sample(result, conditions));
      }
    }
    return samples;
  }

  private static List<Condition> conditions(List<String> lines) {
    List<Condition> out = new ArrayList<>();
    for (String line : lines) {
      Condition.parse(line.trim()).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The Markdown page: title, header, the verdict, the table, the converge floor, then the
   * parseable lines.
   */
  static String markdown(
      String title, String header, List<Judged> judged, List<Floor.Fraction> floor) {
    StringBuilder md = new StringBuilder();
    md.append("# Benchmark results: ").append(title).append("\n\n");
    md.append("**").append(verdict(judged, floor).substring(2)).append("**\n\n");
    if (!header.isBlank()) {
      md.append(header.strip()).append("\n\n");
    }
    md.append("Each value is a median; ratio > 1 means ours is better (faster, more per second, ")
        .append("or less memory), whichever way the unit points. A figure measured outside the ")
        .append("conditions it needs has no ratio: its row says why it is invalid.\n\n");
    md.append("| Figure | What | Peer | Ours | Peer's | Unit | Ratio | Goal | Met |\n");
    md.append("|---|---|---|---:|---:|---|---:|---:|:---:|\n");
    for (Judged j : judged) {
      Comparison c = j.c();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              c.figure(),
              Figures.describe(c.figure()),
              c.peer(),
              Comparison.number(c.ours()),
              Comparison.number(c.theirs()),
              c.unit(),
              j.valid() ? String.format(Locale.ROOT, "%.2f", c.ratio()) : "invalid",
              c.goal().map(g -> String.format(Locale.ROOT, "≥ %.1f", g.minRatio())).orElse(""),
              j.valid()
                  ? c.met().map(m -> m ? "yes" : "**no**").orElse("")
                  : "invalid (" + String.join("; ", j.reasons()) + ")"));
    }
    md.append('\n').append(Floor.markdown(floor));
    md.append("```\n");
    judged.forEach(j -> md.append(j.line()).append('\n'));
    floor.forEach(f -> md.append(f.line()).append('\n'));
    md.append("```\n");
    return md.toString();
  }
}
