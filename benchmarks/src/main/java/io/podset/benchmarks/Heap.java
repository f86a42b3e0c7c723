package io.podset.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/** What this JVM's heap retains: the heap in use after full collections. */
public final class Heap {

  private static final long REFERENCE_PROCESSING_TIMEOUT_MILLIS = 10_000;

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
      collectAndAwaitReferenceProcessing();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (used >= previous) {
        return Math.min(used, previous);
      }
      previous = used;
    }
    return previous;
  }

  /**
   * A full collection, then a wait until the collector has enqueued a sentinel's reference: what
   * the collection freed is then accounted for, and cleaners it triggered have been handed their
   * work.
   */
  private static void collectAndAwaitReferenceProcessing() throws InterruptedException {
    ReferenceQueue<Object> queue = new ReferenceQueue<>();
    WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
    System.gc();
    if (queue.remove(REFERENCE_PROCESSING_TIMEOUT_MILLIS) == null) {
      throw new IllegalStateException(
          "the collector did not process references within "
              + REFERENCE_PROCESSING_TIMEOUT_MILLIS
              + " ms after System.gc() (is -XX:+DisableExplicitGC set?)");
    }
    sentinel.clear();
  }
}
