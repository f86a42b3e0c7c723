package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
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
 *
 * <p>The scenarios cover the queue's lock-free done (of a key not added meanwhile) against the
 * locked paths: hot keys (mostly coalescing adds), many keys, keys that churn through a small table
 * (idle entries evicted and reused for other keys while lock-free readers look at them), a metered
 * queue (every done takes the lock), and drains racing lock-free dones.
 */
class WorkQueueConcurrencyIT {

  private static final int PRODUCERS = 3;
  private static final int WORKERS = 3;
  private static final int ADDS_PER_PRODUCER = 1_000_000;

  /** Picks the next key a producer adds, from its random source and its number of adds so far. */
  private interface KeyChooser {
    int next(SplittableRandom random, long adds);
  }

  private static KeyChooser uniform(int keyCount) {
    return (random, adds) -> random.nextInt(keyCount);
  }

  @Test
  void hotKeys_neverSharedByTwoWorkers_noAddLost_processedAfterLastAdd() throws Exception {
    Stats stats =
        hammer(WorkQueues.<Integer>builder().build(), 64, uniform(64), 300_000, UNBOUNDED);

    assertThat(stats.calls).isGreaterThanOrEqualTo(1_000_000L);
  }

  @Test
  void manyKeys_neverSharedByTwoWorkers_noAddLost_processedAfterLastAdd() throws Exception {
    Stats stats =
        hammer(WorkQueues.<Integer>builder().build(), 65_536, uniform(65_536), 300_000, UNBOUNDED);

    assertThat(stats.calls).isGreaterThanOrEqualTo(1_000_000L);
    assertThat(stats.processings).isGreaterThanOrEqualTo(65_536L);
  }

  /**
   * Each producer adds from a window of 256 keys that slides over 262,144 keys, so a few thousand
   * keys at most are live at once while hundreds of thousands pass through: the table stays small,
   * evicting idle entries and reusing them for other keys while other threads look them up without
   * the lock.
   */
  @Test
  void churningKeys_entriesReusedForOtherKeys_neverSharedByTwoWorkers_noAddLost() throws Exception {
    int keyCount = 1 << 18;
    FifoWorkQueue<Integer> queue = (FifoWorkQueue<Integer>) WorkQueues.<Integer>builder().build();
    KeyChooser sliding =
        (random, adds) -> (int) ((adds >> 2) % (keyCount - 256)) + random.nextInt(256);

    // The producers wait while 4096 keys are queued, so the live keys (queued or processing) stay
    // far below the table's bound however the threads are scheduled: a producer running ahead of
    // descheduled workers once made 98k keys live at once, which legitimately grew the table.
    Stats stats = hammer(queue, keyCount, sliding, 300_000, 4_096);

    assertThat(stats.processings).isGreaterThanOrEqualTo(300_000L);
    // Without eviction the table would hold every key that passed: over 2^19 buckets.
    assertThat(queue.entryCapacity()).isLessThan(keyCount / 2);
  }

  /** With metrics every hand-out is counted, so every done takes the lock. */
  @Test
  void meteredQueue_neverSharedByTwoWorkers_noAddLost_processedAfterLastAdd() throws Exception {
    WorkQueue<Integer> queue =
        WorkQueues.<Integer>builder()
            .name("hammered")
            .meterRegistry(new SimpleMeterRegistry())
            .build();

    Stats stats = hammer(queue, 1_024, uniform(1_024), 300_000, UNBOUNDED);

    assertThat(stats.calls).isGreaterThanOrEqualTo(1_000_000L);
  }

  /**
   * A drain that starts while workers finish keys lock-free returns only once no key is held by a
   * worker: the keys being processed when it starts are counted, and a done racing that count is
   * either counted or finished before it. Many short rounds, each draining at a random moment while
   * a producer keeps adding.
   */
  @Test
  void shutDownWithDrain_racingLockFreeDones_returnsOnlyWhenNoKeyIsHeld() throws Exception {
    SplittableRandom rounds = new SplittableRandom(99);
    for (int round = 0; round < 300; round++) {
      WorkQueue<Integer> queue = WorkQueues.<Integer>builder().build();
      AtomicInteger held = new AtomicInteger();
      AtomicLong processings = new AtomicLong();
      AtomicReference<String> violation = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (Optional<Integer> key = queue.get(); key.isPresent(); key = queue.get()) {
                      held.incrementAndGet();
                      processings.incrementAndGet();
                      held.decrementAndGet();
                      queue.done(key.get());
                    }
                  } catch (InterruptedException | RuntimeException e) {
                    violation.compareAndSet(null, "worker failed: " + e);
                  }
                }));
      }
      long seed = rounds.nextLong();
      threads.add(
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                while (!queue.isShuttingDown()) {
                  queue.add(random.nextInt(64));
                }
              }));
      threads.forEach(Thread::start);
      long before = rounds.nextInt(2_000);
      Waits.until("some keys processed", () -> processings.get() >= before);

      queue.shutDownWithDrain();
      int heldAfterDrain = held.get();
      int waitingAfterDrain = queue.len();
      for (Thread thread : threads) {
        thread.join();
      }

      assertThat(violation.get()).isNull();
      assertThat(heldAfterDrain).as("keys held by workers when the drain returned").isZero();
      assertThat(waitingAfterDrain).isZero();
    }
  }

  private record Stats(long calls, long processings) {}

  /** No limit on the keys queued ahead of the workers. */
  private static final int UNBOUNDED = Integer.MAX_VALUE;

  private static Stats hammer(
      WorkQueue<Integer> queue,
      int keyCount,
      KeyChooser chooser,
      long minProcessings,
      int maxQueued)
      throws InterruptedException {
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
                  while (queue.len() > maxQueued) {
                    Thread.yield();
                  }
                  int key = chooser.next(random, myAdds);
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
