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
    List<ResultLine> samples = read(raw);
    List<Comparison> comparisons = Comparison.of(samples, Goal.ISSUE_10);
    comparisons.forEach(c -> System.out.println(c.line()));
    long met = comparisons.stream().filter(c -> c.met().orElse(false)).count();
    long missed = comparisons.stream().filter(c -> !c.met().orElse(true)).count();
    System.out.printf(Locale.ROOT, "# goals: %d met, %d missed%n", met, missed);
    comparisons.stream()
        .filter(c -> !c.met().orElse(true))
        .forEach(
            c ->
                System.out.printf(
                    Locale.ROOT,
                    "# missed: %s ratio %.2f < %.2f%n",
                    c.name(),
                    c.ratio(),
                    c.goal().orElseThrow().minRatio()));
    Path meta = raw.resolve("meta.md");
    String header = Files.exists(meta) ? Files.readString(meta) : "";
    Files.writeString(
        Path.of(args[1]), markdown(args[2], header, comparisons), StandardCharsets.UTF_8);
  }

  /** Every sample in the directory's result files. */
  static List<ResultLine> read(Path dir) throws IOException {
    List<ResultLine> samples = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.sorted().toList();
    }
    for (Path file : files) {
      String name = file.getFileName().toString();
      if (name.endsWith(".json")) {
        samples.addAll(RawResults.jmhJson(Files.readString(file)));
      } else if (name.endsWith(".go.txt")) {
        samples.addAll(RawResults.goBench(Files.readAllLines(file)));
      } else if (name.endsWith(".txt")) {
        samples.addAll(RawResults.resultLines(Files.readAllLines(file)));
      }
    }
    return samples;
  }

  /** The Markdown page: title, header, the table, then the parseable lines. */
  static String markdown(String title, String header, List<Comparison> comparisons) {
    StringBuilder md = new StringBuilder();
    md.append("# Benchmark results: ").append(title).append("\n\n");
    if (!header.isBlank()) {
      md.append(header.strip()).append("\n\n");
    }
    md.append("Each value is a median; ratio > 1 means ours is better (faster, more per second, ")
        .append("or less memory), whichever way the unit points.\n\n");
    md.append("| Figure | What | Peer | Ours | Peer's | Unit | Ratio | Goal | Met |\n");
    md.append("|---|---|---|---:|---:|---|---:|---:|:---:|\n");
    for (Comparison c : comparisons) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %.2f | %s | %s |%n",
              c.figure(),
              Figures.describe(c.figure()),
              c.peer(),
              Comparison.number(c.ours()),
              Comparison.number(c.theirs()),
              c.unit(),
              c.ratio(),
              c.goal().map(g -> String.format(Locale.ROOT, "≥ %.1f", g.minRatio())).orElse(""),
              c.met().map(m -> m ? "yes" : "**no**").orElse("")));
    }
    md.append("\n```\n");
    comparisons.forEach(c -> md.append(c.line()).append('\n'));
    md.append("```\n");
    return md.toString();
  }
}
