package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Hammers one queue with several producers and workers (millions of queue calls) and checks the
 * three promises a controller relies on: a key is never processed by two workers at once, no add is
 * lost, and every key is processed after its last add.
 *
 * <p>How: a producer bumps {@code added[k]} and then adds k. A worker that gets k marks it in
 * flight (two workers at once is a violation), reads {@code added[k]} into {@code seen[k]}, and
 * calls done. Once the producers are finished, {@link WorkQueue#shutDownWithDrain()} waits for the
 * workers; then {@code seen[k] == added[k]} for every key proves that every add was followed by a
 * processing that started after it. Workers also re-add one key in eight while processing it, as a
 * requeueing reconciler does, to drive the dirty-while-processing path.
 */
class WorkQueueConcurrencyIT {

  private static final int PRODUCERS = 3;
  private static final int WORKERS = 3;
  private static final int ADDS_PER_PRODUCER = 1_000_000;

  @Test
  void hotKeys_neverSharedByTwoWorkers_noAddLost_processedAfterLastAdd() throws Exception {
    Stats stats = hammer(64, 300_000);

    assertThat(stats.calls).isGreaterThanOrEqualTo(1_000_000L);
  }

  @Test
  void manyKeys_neverSharedByTwoWorkers_noAddLost_processedAfterLastAdd() throws Exception {
    Stats stats = hammer(65_536, 300_000);

    assertThat(stats.calls).isGreaterThanOrEqualTo(1_000_000L);
    assertThat(stats.processings).isGreaterThanOrEqualTo(65_536L);
  }

  private record Stats(long calls, long processings) {}

  private static Stats hammer(int keyCount, long minProcessings) throws InterruptedException {
    WorkQueue<Integer> queue = WorkQueues.<Integer>builder().build();
    Integer[] keys = new Integer[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = i;
    }
    AtomicIntegerArray added = new AtomicIntegerArray(keyCount);
    AtomicIntegerArray seen = new AtomicIntegerArray(keyCount);
    AtomicIntegerArray inFlight = new AtomicIntegerArray(keyCount);
    AtomicReference<String> violation = new AtomicReference<>();
    AtomicLong processings = new AtomicLong();
    AtomicLong calls = new AtomicLong();
    AtomicLong adds = new AtomicLong();
    long giveUpAt = System.nanoTime() + 60_000_000_000L;

    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      long seed = 7L * w;
      workers.add(
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                long myCalls = 0;
                long mine = 0;
                try {
                  while (true) {
                    Optional<Integer> next = queue.get();
                    myCalls++;
                    if (next.isEmpty()) {
                      break;
                    }
                    int key = next.get();
                    if (inFlight.incrementAndGet(key) != 1) {
                      violation.compareAndSet(null, "key " + key + " handed to two workers");
                    }
                    seen.accumulateAndGet(key, added.get(key), Math::max);
                    if (random.nextInt(8) == 0) {
                      queue.add(keys[key]);
                      myCalls++;
                    }
                    mine++;
                    if ((mine & 1023) == 0) {
                      processings.addAndGet(1024);
                    }
                    inFlight.decrementAndGet(key);
                    queue.done(keys[key]);
                    myCalls++;
                  }
                } catch (InterruptedException e) {
                  violation.compareAndSet(null, "worker interrupted");
                } catch (RuntimeException | Error e) {
                  violation.compareAndSet(null, "worker failed: " + e);
                }
                processings.addAndGet(mine & 1023);
                calls.addAndGet(myCalls);
              },
              "worker-" + w));
    }
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      long seed = 42L + p;
      producers.add(
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                long myAdds = 0;
                while (myAdds < ADDS_PER_PRODUCER
                    || (processings.get() < minProcessings && System.nanoTime() < giveUpAt)) {
                  int key = random.nextInt(keyCount);
                  added.incrementAndGet(key);
                  queue.add(keys[key]);
                  myAdds++;
                  if ((myAdds & 15) == 0) {
                    // Real producers do other work between adds; without this they hog the lock
                    // and a hot-key run mostly measures no-op adds of dirty keys.
                    Thread.yield();
                  }
                }
                adds.addAndGet(myAdds);
                calls.addAndGet(myAdds);
              },
              "producer-" + p));
    }

    long start = System.nanoTime();
    workers.forEach(Thread::start);
    producers.forEach(Thread::start);
    for (Thread producer : producers) {
      producer.join();
    }
    queue.shutDownWithDrain();
    for (Thread worker : workers) {
      worker.join();
    }
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(violation.get()).isNull();
    for (int k = 0; k < keyCount; k++) {
      assertThat(seen.get(k)).as("last add of key %d was processed", k).isEqualTo(added.get(k));
      assertThat(inFlight.get(k)).isZero();
    }
    assertThat(queue.len()).isZero();
    assertThat(processings.get()).isGreaterThanOrEqualTo(minProcessings);
    System.out.printf(
        "work queue, %d keys: %d calls (%d producer adds, %d processings) in %d ms%n",
        keyCount, calls.get(), adds.get(), processings.get(), elapsedMillis);
    return new Stats(calls.get(), processings.get());
  }
}
