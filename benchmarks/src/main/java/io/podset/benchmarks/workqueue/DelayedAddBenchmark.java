package io.podset.benchmarks.workqueue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code addAfter} and {@code addRateLimited} of {@value #BATCH} distinct keys into a fresh queue
 * (figures {@code workqueue.add_after} and {@code workqueue.add_rate_limited}), the cost seen by
 * the caller per key. Making and shutting down the queue is not timed, though its allocations count
 * in {@code -prof gc}. client-java and client-go hand a delayed key to a background loop, so part
 * of their work happens off the calling thread; client-java's hand-off buffer holds {@value #BATCH}
 * keys and drops the rest silently, hence the batch size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DelayedAddBenchmark.BATCH)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class DelayedAddBenchmark {

  static final int BATCH = 1000;

  private static final Duration HOUR = Duration.ofHours(1);

  /** The queue implementation (the bare blocking queue has no delays). */
  @Param({"ours", "client-java"})
  public String contender;

  private final String[] keys = Keys.of("delayed", BATCH);
  private QueueUnderTest queue;

  /** A fresh queue for every batch. */
  @Setup(Level.Invocation)
  public void setUp() {
    queue = QueueUnderTest.create(contender);
  }

  /** Shuts the batch's queue down. */
  @TearDown(Level.Invocation)
  public void tearDown() {
    queue.close();
  }

  /** {@value #BATCH} delayed adds of distinct keys, one hour ahead. */
  @Benchmark
  public void addAfter() {
    for (String key : keys) {
      queue.addAfter(key, HOUR);
    }
  }

  /** {@value #BATCH} rate-limited adds of distinct keys. */
  @Benchmark
  public void addRateLimited() {
    for (String key : keys) {
      queue.addRateLimited(key);
    }
  }
}
