package io.podset.benchmarks.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs an indexed task for every index on a few threads: how the drivers seed a server. */
final class Parallel {

  private Parallel() {}

  /** One step of the work, for index {@code i}. */
  interface Task {
    void run(int i) throws Exception;
  }

  /**
   * Runs {@code task} for 0 to {@code count - 1} on {@code threads} threads; rethrows a failure.
   */
  static void forEachIndex(int count, int threads, Task task) throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    task.run(i);
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
