package io.podset.runtime.workqueue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of add / non-blocking get / done / len against {@link SequentialQueue}, a
 * few-line sequential model of client-go's rules. Lincheck's model checker explores thread
 * interleavings of small random scenarios (keys 1..3) and fails with the offending interleaving
 * when a history has no sequential explanation. Real-thread stress is {@link
 * WorkQueueConcurrencyIT}'s job.
 *
 * <p>Cost: most of the run time is Lincheck instrumenting the JDK once per JVM (measured on the
 * shared 2-core machine under load: 44 s for a single invocation, 62 s for these 1,000). Public
 * because Lincheck instantiates the class and calls the operations reflectively.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
public class WorkQueueLincheckIT {

  private final WorkQueue<Integer> queue = WorkQueues.<Integer>builder().build();

  @Operation
  public void add(@Param(name = "key") int key) {
    queue.add(key);
  }

  @Operation
  public Integer get() throws InterruptedException {
    return queue.poll(Duration.ZERO).orElse(null);
  }

  @Operation
  public void done(@Param(name = "key") int key) {
    queue.done(key);
  }

  @Operation
  public int len() {
    return queue.len();
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .sequentialSpecification(SequentialQueue.class)
        .iterations(10)
        .invocationsPerIteration(100)
        .check(WorkQueueLincheckIT.class);
  }

  /** The sequential specification: a FIFO plus the dirty and processing sets, nothing else. */
  public static final class SequentialQueue {
    private final ArrayDeque<Integer> ready = new ArrayDeque<>();
    private final Set<Integer> dirty = new HashSet<>();
    private final Set<Integer> processing = new HashSet<>();

    public void add(int key) {
      if (dirty.add(key) && !processing.contains(key)) {
        ready.addLast(key);
      }
    }

    public Integer get() {
      Integer key = ready.pollFirst();
      if (key != null) {
        dirty.remove(key);
        processing.add(key);
      }
      return key;
    }

    public void done(int key) {
      if (!processing.remove(key)) {
        throw new IllegalStateException("not processing: " + key);
      }
      if (dirty.contains(key)) {
        ready.addLast(key);
      }
    }

    public int len() {
      return ready.size();
    }
  }
}
