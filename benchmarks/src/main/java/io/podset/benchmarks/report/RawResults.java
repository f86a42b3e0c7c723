package io.podset.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers of the benchmarks' raw output into {@link ResultLine}s, one per measured iteration. */
public final class RawResults {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** {@code BenchmarkAddAfter-2 1000000 225.4 ns/op 75 B/op 1 allocs/op}. */
  private static final Pattern GO_LINE =
      Pattern.compile("^Benchmark([A-Za-z0-9_]+?)(?:-\\d+)?\\s+\\d+\\s+(.+)$");

  private static final Pattern GO_PACKAGE = Pattern.compile("^pkg:\\s+\\S*/([A-Za-z0-9_]+)$");

  private static final String JMH_ROOT = "io.podset.benchmarks.";
  private static final String ALLOC_METRIC = "gc.alloc.rate.norm";

  private RawResults() {}

  /**
   * The samples of a JMH JSON result file ({@code -rf json}). A benchmark {@code
   * io.podset.benchmarks.<area>.<Class>.<method>} with parameter {@code contender} gives figure
   * {@code <area>.<method in snake case>}, one sample per measurement iteration; with {@code -prof
   * gc}, {@code <figure>.alloc} in B/op as well.
   *
   * @throws IllegalArgumentException if the JSON is not a JMH result or lacks the contender
   */
  public static List<ResultLine> jmhJson(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + abbreviate(json), e);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("a JMH result is a JSON array: " + abbreviate(json));
    }
    List<ResultLine> out = new ArrayList<>();
    for (JsonNode run : root) {
      String benchmark = run.path("benchmark").asText();
      String contender = run.path("params").path("contender").asText(null);
      if (contender == null) {
        throw new IllegalArgumentException("JMH benchmark without a contender param: " + benchmark);
      }
      String figure = jmhFigure(benchmark);
      JsonNode primary = run.path("primaryMetric");
      addRaw(out, figure, contender, primary);
      for (var metric : iterable(run.path("secondaryMetrics").fields())) {
        String name = metric.getKey().replace("·", "");
        if (name.equals(ALLOC_METRIC)) {
          addRaw(out, figure + ".alloc", contender, metric.getValue());
        }
      }
    }
    return out;
  }

  /**
   * The samples of {@code go test -bench -benchmem} output, for contender {@code client-go}. A
   * benchmark {@code BenchmarkAddAfter} in package {@code .../workqueue} gives figure {@code
   * workqueue.add_after} in ns/op, and {@code workqueue.add_after.alloc} in B/op. A benchmark that
   * reports its own rate (a unit ending in {@code /s}) gives only that figure.
   */
  public static List<ResultLine> goBench(List<String> lines) {
    List<ResultLine> out = new ArrayList<>();
    String area = null;
    for (String line : lines) {
      Matcher pkg = GO_PACKAGE.matcher(line.trim());
      if (pkg.matches()) {
        area = pkg.group(1);
        continue;
      }
      Matcher m = GO_LINE.matcher(line.trim());
      if (!m.matches()) {
        continue;
      }
      if (area == null) {
        throw new IllegalArgumentException("go benchmark line before its 'pkg:' line: " + line);
      }
      String figure = area + "." + snakeCase(m.group(1));
      String[] fields = m.group(2).trim().split("\\s+");
      List<ResultLine> metrics = new ArrayList<>();
      List<ResultLine> rates = new ArrayList<>();
      for (int i = 0; i + 1 < fields.length; i += 2) {
        double value = Double.parseDouble(fields[i]);
        String unit = fields[i + 1];
        switch (unit) {
          case "ns/op" -> metrics.add(new ResultLine(figure, "client-go", value, unit));
          case "B/op" -> metrics.add(new ResultLine(figure + ".alloc", "client-go", value, unit));
          default -> {
            if (unit.endsWith("/s")) {
              rates.add(new ResultLine(figure, "client-go", value, unit));
            }
          }
        }
      }
      out.addAll(rates.isEmpty() ? metrics : rates);
    }
    return out;
  }

  /** The {@link ResultLine}s among any output lines. */
  public static List<ResultLine> resultLines(List<String> lines) {
    List<ResultLine> out = new ArrayList<>();
    for (String line : lines) {
      ResultLine.parse(line.trim()).ifPresent(out::add);
    }
    return out;
  }

  static String jmhFigure(String benchmark) {
    if (!benchmark.startsWith(JMH_ROOT)) {
      throw new IllegalArgumentException(
          "JMH benchmark outside " + JMH_ROOT + "<area>: " + benchmark);
    }
    String[] parts = benchmark.substring(JMH_ROOT.length()).split("\\.");
    if (parts.length != 3) {
      throw new IllegalArgumentException("expected <area>.<Class>.<method>: " + benchmark);
    }
    return parts[0] + "." + snakeCase(parts[2]);
  }

  /** {@code addRateLimited} or {@code AddRateLimited} to {@code add_rate_limited}. */
  static String snakeCase(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0 && out.charAt(out.length() - 1) != '_') {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }

  private static void addRaw(List<ResultLine> out, String figure, String contender, JsonNode m) {
    String unit = m.path("scoreUnit").asText();
    for (JsonNode fork : m.path("rawData")) {
      for (JsonNode iteration : fork) {
        out.add(new ResultLine(figure, contender, iteration.asDouble(), unit));
      }
    }
  }

  private static <T> Iterable<T> iterable(java.util.Iterator<T> iterator) {
    return () -> iterator;
  }

  private static String abbreviate(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "...";
  }
}
