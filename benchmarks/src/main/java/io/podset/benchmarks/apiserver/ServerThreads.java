package io.podset.benchmarks.apiserver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time and bytes allocated so far by the threads of an API server running in this JVM: the
 * Vert.x threads (event loops, workers) the testkit serves every request on. Per-thread counters,
 * not wall time: the JIT compiler threads and the GC are outside them, and other processes on the
 * machine slow the threads without adding to their CPU much, so a difference of two readings is the
 * server's own work even on a loaded machine.
 */
final class ServerThreads {

  private static final String PREFIX = "vert.x-";

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** Per thread id: CPU nanoseconds and allocated bytes at the reading. */
  private final Map<Long, long[]> counters;

  private ServerThreads(Map<Long, long[]> counters) {
    this.counters = counters;
  }

  /** The counters of every server thread now. */
  static ServerThreads read() {
    Map<Long, long[]> counters = new HashMap<>();
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(PREFIX)) {
        long id = info.getThreadId();
        counters.put(
            id, new long[] {THREADS.getThreadCpuTime(id), THREADS.getThreadAllocatedBytes(id)});
      }
    }
    return counters.isEmpty() ? failNoThreads() : new ServerThreads(counters);
  }

  private static ServerThreads failNoThreads() {
    throw new IllegalStateException("no " + PREFIX + "* threads: is the server in this JVM?");
  }

  /** CPU nanoseconds the server threads used since {@code earlier} (new threads from zero). */
  long cpuNanosSince(ServerThreads earlier) {
    return since(earlier, 0);
  }

  /** Bytes the server threads allocated since {@code earlier} (new threads from zero). */
  long allocatedSince(ServerThreads earlier) {
    return since(earlier, 1);
  }

  private long since(ServerThreads earlier, int counter) {
    long sum = 0;
    for (Map.Entry<Long, long[]> e : counters.entrySet()) {
      long[] before = earlier.counters.get(e.getKey());
      sum += e.getValue()[counter] - (before == null ? 0 : before[counter]);
    }
    return sum;
  }
}
