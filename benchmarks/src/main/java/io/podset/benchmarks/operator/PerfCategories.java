package io.podset.benchmarks.operator;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of a {@code perf record -g} of the operator JVM, as {@code perf script -F
 * comm,tid,time,ip,sym,dso} prints them, counted by phase, thread kind and category: what a sample
 * was doing is the leaf-most frame of our code or of a library ({@link #RULES}); a sample in JDK or
 * native code (a HashMap, a syscall, the allocator) counts for the caller that made it; one with no
 * such frame is the JVM's own (collector, compilers, runtime). Unlike a flight recording, perf sees
 * the native and kernel frames too: the syscalls of the event loop, the collector, the JIT.
 *
 * <p>Not thread-safe; fed once.
 */
final class PerfCategories {

  /** A phase: its name and its CLOCK_MONOTONIC span in seconds (perf's {@code -k monotonic}). */
  record Window(String name, double startSeconds, double endSeconds) {
    Window {
      Objects.requireNonNull(name, "name");
      if (endSeconds < startSeconds) {
        throw new IllegalArgumentException(name + " ends before it starts");
      }
    }

    boolean contains(double seconds) {
      return seconds >= startSeconds && seconds < endSeconds;
    }
  }

  private record Rule(String category, Pattern frame) {}

  /** Categories by the frames that make them, the first match from the leaf up winning. */
  private static final List<Rule> RULES =
      List.of(
          rule(
              "TLS",
              "com\\.sun\\.crypto|sun\\.security|javax\\.net\\.ssl|io\\.netty\\.handler\\.ssl"),
          rule("JSON (Jackson)", "com\\.fasterxml"),
          rule(
              "projection",
              "io\\.podset\\.runtime\\.informer\\.(Projection|FieldProjection|KeptField|CopyPlan"
                  + "|InternCache)"),
          rule("watch transport", "io\\.podset\\.runtime\\.informer\\.transport"),
          rule("informer", "io\\.podset\\.runtime\\.informer"),
          rule("reconciler", "io\\.podset\\.operator"),
          rule("controller runtime", "io\\.podset"),
          rule("fabric8 model", "io\\.fabric8\\.kubernetes\\.api\\.model"),
          rule("fabric8 client", "io\\.fabric8"),
          rule("Vert.x", "io\\.vertx"),
          rule("Netty", "io\\.netty"));

  private static final String JVM = "JVM (collector, compilers, runtime)";
  private static final Pattern HEADER = Pattern.compile("^(.*?)\\s+(\\d+)\\s+(\\d+\\.\\d+):\\s*$");

  private final List<Window> windows;
  // phase -> thread kind -> category -> samples
  private final Map<String, Map<String, Map<String, Integer>>> counts = new LinkedHashMap<>();
  // phase -> leaf kind (kernel, JVM, ...) -> samples
  private final Map<String, Map<String, Integer>> leaves = new LinkedHashMap<>();
  // phase -> samples whose leaf-most Java frame was interpreted
  private final Map<String, Integer> interpretedSamples = new LinkedHashMap<>();

  private PerfCategories(List<Window> windows) {
    this.windows = List.copyOf(windows);
    for (Window window : windows) {
      counts.put(window.name(), new LinkedHashMap<>());
      leaves.put(window.name(), new LinkedHashMap<>());
    }
  }

  private static Rule rule(String category, String frame) {
    return new Rule(category, Pattern.compile(frame));
  }

  /** Counts the samples of {@code script} that fall in one of {@code windows}. */
  static PerfCategories read(BufferedReader script, List<Window> windows) throws IOException {
    PerfCategories categories = new PerfCategories(windows);
    String comm = null;
    Window window = null;
    List<String> frames = new ArrayList<>();
    for (String line = script.readLine(); line != null; line = script.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      if (Character.isWhitespace(line.charAt(0))) {
        frames.add(line.strip());
        continue;
      }
      categories.add(window, comm, frames);
      frames.clear();
      Matcher header = HEADER.matcher(line);
      if (header.matches()) {
        comm = header.group(1);
        window = categories.windowAt(Double.parseDouble(header.group(3)));
      } else {
        comm = null;
        window = null;
      }
    }
    categories.add(window, comm, frames);
    return categories;
  }

  private Window windowAt(double seconds) {
    for (Window window : windows) {
      if (window.contains(seconds)) {
        return window;
      }
    }
    return null;
  }

  private void add(Window window, String comm, List<String> frames) {
    if (window == null || comm == null || frames.isEmpty()) {
      return;
    }
    counts
        .get(window.name())
        .computeIfAbsent(ThreadCpu.kind(comm), k -> new LinkedHashMap<>())
        .merge(category(frames), 1, Integer::sum);
    leaves.get(window.name()).merge(leafKind(frames.get(0)), 1, Integer::sum);
    if (interpreted(frames)) {
      interpretedSamples.merge(window.name(), 1, Integer::sum);
    }
  }

  /** Whether the leaf-most Java frame runs in the interpreter (not compiled yet). */
  private static boolean interpreted(List<String> frames) {
    for (String frame : frames) {
      if (frame.contains("/perf-") || frame.contains("[JIT]")) {
        return frame.contains(" Interpreter ");
      }
    }
    return false;
  }

  /** The category of one sample's frames, leaf first. */
  static String category(List<String> frames) {
    for (String frame : frames) {
      for (Rule rule : RULES) {
        if (rule.frame().matcher(frame).find()) {
          return rule.category();
        }
      }
    }
    return JVM;
  }

  private static String leafKind(String frame) {
    if (frame.contains("[kernel.kallsyms]")) {
      return "kernel";
    }
    if (frame.contains("libjvm.so")) {
      return "libjvm";
    }
    if (frame.contains(".so") && !frame.contains("/perf-")) {
      return "other native";
    }
    return "Java (JIT or interpreter)";
  }

  /** Samples of {@code phase} by thread kind and category. */
  Map<String, Map<String, Integer>> samples(String phase) {
    return counts.get(phase);
  }

  /**
   * One table per phase: CPU-seconds (samples over {@code hz}) by category, for all threads and for
   * the {@code kinds} thread kinds that took the most, and where the leaf frames were.
   */
  String markdown(int hz, int kinds) {
    StringBuilder out = new StringBuilder();
    for (Window window : windows) {
      Map<String, Map<String, Integer>> byKind = counts.get(window.name());
      Map<String, Integer> all = new LinkedHashMap<>();
      byKind.values().forEach(c -> c.forEach((k, v) -> all.merge(k, v, Integer::sum)));
      int total = sum(all);
      out.append(
          String.format(
              "## %s: %d samples, %.2f CPU-s at %d Hz%n%n",
              window.name(), total, (double) total / hz, hz));
      if (total > 0) {
        appendTable(out, all, byKind, hz, kinds);
        appendLeaves(out, window.name(), total);
      }
    }
    return out.toString();
  }

  private static void appendTable(
      StringBuilder out,
      Map<String, Integer> all,
      Map<String, Map<String, Integer>> byKind,
      int hz,
      int kinds) {
    List<String> top =
        byKind.entrySet().stream()
            .sorted(
                Comparator.comparingInt(
                    (Map.Entry<String, Map<String, Integer>> e) -> -sum(e.getValue())))
            .limit(kinds)
            .map(Map.Entry::getKey)
            .toList();
    int total = sum(all);
    out.append("| category | all threads | share |");
    top.forEach(kind -> out.append(' ').append(kind).append(" |"));
    out.append("\n| --- | ---: | ---: |");
    top.forEach(kind -> out.append(" ---: |"));
    out.append('\n');
    for (Map.Entry<String, Integer> category : descending(all)) {
      out.append(
          String.format(
              "| %s | %.2f | %.1f%% |",
              category.getKey(),
              (double) category.getValue() / hz,
              100.0 * category.getValue() / total));
      for (String kind : top) {
        out.append(
            String.format(
                " %.2f |", (double) byKind.get(kind).getOrDefault(category.getKey(), 0) / hz));
      }
      out.append('\n');
    }
    out.append(String.format("| (all) | %.2f | 100%% |", (double) total / hz));
    top.forEach(kind -> out.append(String.format(" %.2f |", (double) sum(byKind.get(kind)) / hz)));
    out.append("\n\n");
  }

  private void appendLeaves(StringBuilder out, String phase, int total) {
    List<String> shares = new ArrayList<>();
    for (Map.Entry<String, Integer> leaf : descending(leaves.get(phase))) {
      shares.add(String.format("%s %.1f%%", leaf.getKey(), 100.0 * leaf.getValue() / total));
    }
    out.append("Leaf frames: ")
        .append(String.join(", ", shares))
        .append(
            String.format(
                "; in the interpreter (the leaf-most Java frame not compiled yet): %.1f%%%n%n",
                100.0 * interpretedSamples.getOrDefault(phase, 0) / total));
  }

  private static List<Map.Entry<String, Integer>> descending(Map<String, Integer> counts) {
    return counts.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, Integer> e) -> -e.getValue()))
        .toList();
  }

  private static int sum(Map<String, Integer> counts) {
    return counts.values().stream().mapToInt(Integer::intValue).sum();
  }
}
