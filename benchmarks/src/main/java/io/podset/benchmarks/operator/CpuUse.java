package io.podset.benchmarks.operator;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * This JVM's CPU time, JIT compilation time and GC time at one moment; {@link #since} gives what
 * was spent between two of them. On a machine shared with other work, the CPU a JVM spent is a
 * steadier measure of its cost than the wall time.
 *
 * @param cpuNanos the process's CPU time (all threads, user and system)
 * @param javaNanos the CPU time of the live Java threads (the rest went to the JIT compilers, the
 *     collectors, the VM and threads that ended)
 * @param jitMillis the JIT compilers' accumulated time (wall time of compile tasks)
 * @param gcMillis the collectors' accumulated time
 */
record CpuUse(long cpuNanos, long javaNanos, long jitMillis, long gcMillis) {

  /** What this JVM has spent so far. */
  static CpuUse now() {
    long cpu =
        ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os
            ? os.getProcessCpuTime()
            : -1;
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    long jitMillis =
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit.getTotalCompilationTime()
            : -1;
    long gcMillis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcMillis += Math.max(0, gc.getCollectionTime());
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long java = 0;
    for (long id : threads.getAllThreadIds()) {
      java += Math.max(0, threads.getThreadCpuTime(id));
    }
    return new CpuUse(cpu, java, jitMillis, gcMillis);
  }

  /** The process's CPU time from {@code start} to this, in ms. */
  double cpuMillisSince(CpuUse start) {
    return (cpuNanos - start.cpuNanos) / 1e6;
  }

  /** One line: the CPU, JIT and GC time spent from {@code start} to this. */
  String since(CpuUse start) {
    return String.format(
        "cpu %d ms (java threads %d ms), jit %d ms, gc %d ms",
        (cpuNanos - start.cpuNanos) / 1_000_000,
        (javaNanos - start.javaNanos) / 1_000_000,
        jitMillis - start.jitMillis,
        gcMillis - start.gcMillis);
  }
}
