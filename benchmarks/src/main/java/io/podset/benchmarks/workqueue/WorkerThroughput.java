package io.podset.benchmarks.workqueue;

import io.podset.benchmarks.report.ResultLine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One producer and two workers sharing a queue (figures {@code workqueue.dedup} in gets/s and
 * {@code workqueue.unique} in ops/s), as {@code BenchmarkDedup} and {@code BenchmarkUnique} in
 * {@code benchmarks/go}.
 *
 * <ul>
 *   <li>dedup: the producer adds {@code adds} times over 10 000 keys in turn; adds of a key that is
 *       still waiting coalesce, so the workers see fewer gets than adds. Figure: gets per second.
 *   <li>unique: the producer adds {@code adds} distinct keys. Figure: keys processed per second.
 * </ul>
 *
 * <p>The clock runs from starting the workers until the queue is drained and both workers have
 * stopped. Usage: {@code WorkerThroughput <contender> <dedup|unique> <adds> <warm-up rounds>
 * <rounds>}; prints one {@link ResultLine} per measured round.
 */
public final class WorkerThroughput {

  private static final int WORKERS = 2;
  private static final int DEDUP_KEYS = 10_000;
  private static final long DRAIN_POLL_NANOS = 50_000L;

  private WorkerThroughput() {}

  /** Runs the rounds and prints their results. */
  public static void main(String[] args) throws InterruptedException {
    if (args.length != 5) {
      throw new IllegalArgumentException(
          "usage: WorkerThroughput <contender> <dedup|unique> <adds> <warm-up rounds> <rounds>");
    }
    String contender = args[0];
    String scenario = args[1];
    int adds = Integer.parseInt(args[2]);
    int warmUps = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    String[] keys =
        switch (scenario) {
          case "dedup" -> Keys.of("dedup", DEDUP_KEYS);
          case "unique" -> Keys.of("unique", adds);
          default ->
              throw new IllegalArgumentException(
                  "scenario must be dedup or unique: '" + scenario + "'");
        };
    String figure = "workqueue." + scenario;
    String unit = scenario.equals("dedup") ? "gets/s" : "ops/s";
    for (int round = 0; round < warmUps + rounds; round++) {
      double rate = round(contender, keys, adds);
      if (round >= warmUps) {
        System.out.println(new ResultLine(figure, contender, rate, unit).format());
      }
    }
  }

  /** One round on a fresh queue; returns gets per second. */
  static double round(String contender, String[] keys, int adds) throws InterruptedException {
    QueueUnderTest queue = QueueUnderTest.create(contender);
    AtomicLong gets = new AtomicLong();
    AtomicInteger busy = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    long start = System.nanoTime();
    for (int w = 0; w < WORKERS; w++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  for (String key = queue.get(); key != null; key = queue.get()) {
                    busy.incrementAndGet();
                    gets.incrementAndGet();
                    queue.done(key);
                    busy.decrementAndGet();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "worker-" + w);
      worker.start();
      workers.add(worker);
    }
    for (int i = 0; i < adds; i++) {
      queue.add(keys[i % keys.length]);
    }
    // Wait until drained. A key re-queued by a done() racing this check may be left: at most one
    // per worker out of hundreds of thousands, the same for every contender.
    while (queue.len() > 0 || busy.get() > 0) {
      LockSupport.parkNanos(DRAIN_POLL_NANOS);
    }
    queue.close();
    for (Thread worker : workers) {
      worker.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return gets.get() / seconds;
  }
}
