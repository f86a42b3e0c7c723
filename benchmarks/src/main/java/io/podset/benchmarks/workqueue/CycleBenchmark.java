package io.podset.benchmarks.workqueue;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One add, get and done of a key on a single thread (figure {@code workqueue.cycle}), over 1024
 * keys in turn. The bare blocking queue does an offer and a take.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CycleBenchmark {

  private static final int MASK = 1023;

  /** The queue implementation. */
  @Param({"ours", "client-java", "lbq"})
  public String contender;

  private QueueUnderTest queue;
  private String[] keys;
  private int next;

  /** Makes the queue and the keys. */
  @Setup(Level.Trial)
  public void setUp() {
    queue = QueueUnderTest.create(contender);
    keys = Keys.of("cycle", MASK + 1);
  }

  /** Shuts the queue down. */
  @TearDown(Level.Trial)
  public void tearDown() {
    queue.close();
  }

  /** Add, get, done. */
  @Benchmark
  public String cycle() throws InterruptedException {
    queue.add(keys[next++ & MASK]);
    String key = queue.get();
    queue.done(key);
    return key;
  }
}
