package io.podset.benchmarks.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The CPU time of each thread of one process, from {@code /proc/<pid>/task/<tid>/stat}, grouped by
 * thread kind (the name without a trailing number): where the operator JVM's CPU goes (the JIT's
 * compiler threads, the collector's, the HTTP client's event loops, informers, workers). A JVM's
 * compiler threads come and go (the JVM retires idle ones), so a poller reads the threads often and
 * keeps what each one had spent when last seen; a thread that ended between two polls loses its
 * last few milliseconds, which {@link #groupsSince} reports as {@code (ended threads)} against the
 * process's own total. Thread-safe. Linux only.
 */
final class ThreadCpu implements AutoCloseable {

  /** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
  private static final long TICK_MILLIS = 10;

  private static final Duration POLL = Duration.ofMillis(100);

  private final long pid;
  // One daemon thread, "thread-cpu", that polls every POLL until close().
  private final ScheduledExecutorService poller;
  private final Object lock = new Object();
  // Guarded by lock: each thread seen, by tid: its name and its CPU ticks when last seen.
  private final Map<Long, Seen> seen = new HashMap<>();

  record Seen(String name, long ticks) {}

  /** A snapshot: CPU ticks by tid, and the thread names. */
  record Snapshot(Map<Long, Seen> threads, Duration process) {}

  private ThreadCpu(long pid) {
    this.pid = pid;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "thread-cpu");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts polling the threads of {@code process}. */
  static ThreadCpu of(ProcessHandle process) {
    ThreadCpu cpu = new ThreadCpu(process.pid());
    cpu.poll();
    long every = POLL.toMillis();
    cpu.poller.scheduleAtFixedRate(cpu::poll, every, every, TimeUnit.MILLISECONDS);
    return cpu;
  }

  /**
   * What each thread has spent so far (as last seen), with the process's total {@code processCpu}.
   */
  Snapshot snapshot(Duration processCpu) {
    poll();
    synchronized (lock) {
      return new Snapshot(Map.copyOf(seen), processCpu);
    }
  }

  /**
   * The CPU from {@code start} to {@code end} by thread kind (the name without its numbers), the
   * largest first, with {@code (ended threads)} for what the process spent beyond the threads seen.
   */
  static Map<String, Duration> groupsSince(Snapshot start, Snapshot end) {
    Map<String, Long> ticks = new TreeMap<>();
    end.threads.forEach(
        (tid, now) -> {
          Seen before = start.threads.get(tid);
          long spent = now.ticks - (before == null ? 0 : before.ticks);
          ticks.merge(kind(now.name), spent, Long::sum);
        });
    Map<String, Duration> groups = new LinkedHashMap<>();
    ticks.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> groups.put(e.getKey(), Duration.ofMillis(e.getValue() * TICK_MILLIS)));
    long seenMillis = ticks.values().stream().mapToLong(Long::longValue).sum() * TICK_MILLIS;
    long processMillis = end.process.minus(start.process).toMillis();
    groups.put("(ended threads)", Duration.ofMillis(Math.max(0, processMillis - seenMillis)));
    return groups;
  }

  /**
   * A thread's kind: its name without a trailing number ({@code GC Thread#0} and {@code GC
   * Thread#1} are {@code GC Thread}; Linux keeps 15 characters of a name: {@code C2 CompilerThre}).
   */
  static String kind(String name) {
    return name.replaceAll("[#-]?[0-9]+$", "").strip();
  }

  /**
   * The name and CPU ticks (user + system) in one {@code /proc/.../stat} line: {@code tid (comm)
   * state ppid ...}, utime and stime being the 14th and 15th fields; the name may hold spaces and
   * parentheses, so the fields are counted from the last ')'.
   */
  static Map.Entry<String, Long> parseStat(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      throw new IllegalArgumentException("not a /proc stat line: " + stat);
    }
    String[] rest = stat.substring(close + 2).trim().split("\\s+");
    // rest[0] is the state (field 3): utime is field 14, stime field 15.
    long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    return Map.entry(stat.substring(open + 1, close), ticks);
  }

  private void poll() {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    List<Path> threads;
    try (Stream<Path> list = Files.list(tasks)) {
      threads = list.toList();
    } catch (IOException | UncheckedIOException e) {
      // The process ended. (Nothing may escape: an exception would cancel the scheduled polls.)
      return;
    }
    for (Path thread : threads) {
      Map.Entry<String, Long> stat;
      try {
        stat = parseStat(Files.readString(thread.resolve("stat")));
      } catch (IOException | RuntimeException e) {
        continue; // the thread ended
      }
      long tid = Long.parseLong(thread.getFileName().toString());
      synchronized (lock) {
        seen.put(tid, new Seen(stat.getKey(), stat.getValue()));
      }
    }
  }

  /** Stops polling; snapshots still read the threads once more. */
  @Override
  public void close() {
    poller.shutdownNow();
  }
}
