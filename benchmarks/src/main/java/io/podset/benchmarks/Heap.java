package io.podset.benchmarks;

import java.lang.management.ManagementFactory;

/** What this JVM's heap retains: the heap in use after full collections. */
public final class Heap {

  private Heap() {}

  /**
   * Heap in use after full collections, once it stops shrinking (at most 5 collections): what the
   * JVM retains, not what it happens to hold between collections.
   *
   * @throws InterruptedException if interrupted between collections
   */
  public static long usedAfterGc() throws InterruptedException {
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50); // let reference processing and cleaners finish between collections
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (used >= previous) {
        return Math.min(used, previous);
      }
      previous = used;
    }
    return previous;
  }
}
