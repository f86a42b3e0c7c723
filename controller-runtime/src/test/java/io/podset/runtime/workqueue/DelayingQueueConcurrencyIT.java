package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Many producers call {@code addAfter} on few keys while a thread advances a manual clock and two
 * workers take keys; a checker then replays the log. Each request is logged (key, the clock before
 * the call, deadline lower bound) before it is made, each get with the clock when it returned. The
 * checker: no key is taken before a request made no later had its deadline (exact with one request
 * per key), and the last request of a key is followed by a get of it.
 */
class DelayingQueueConcurrencyIT {

  private static final int PRODUCERS = 4;
  private static final int ITERATIONS = 20_000;
  private static final int KEYS = 64;
  private static final int ROUNDS = 5;

  record Requested(String key, long at, long deadline) {}

  record Got(String key, long at) {}

  @Test
  void addAfter_hotKeysFromManyThreads_neverEarly_neverLost() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Map<String, List<Long>> gets = runRound(round, false);
      assertThat(gets).hasSizeLessThanOrEqualTo(KEYS);
    }
  }

  @Test
  void addAfter_uniqueKeysFromManyThreads_eachTakenOnce_notBeforeItsDeadline() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Map<String, List<Long>> gets = runRound(round, true);
      assertThat(gets).hasSize(PRODUCERS * ITERATIONS);
      assertThat(gets.values()).allSatisfy(times -> assertThat(times).hasSize(1));
    }
  }

  /**
   * One round; returns the clock times of each key's gets. With {@code unique}, every request is
   * for a key of its own, so the never-early check is exact for it.
   */
  private Map<String, List<Long>> runRound(int round, boolean unique) throws Exception {
    ManualClock clock = new ManualClock();
    DelayingWorkQueue<String> queue =
        (DelayingWorkQueue<String>) WorkQueues.<String>builder().clock(clock).buildDelaying();
    ConcurrentLinkedQueue<Requested> requests = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Got> gets = new ConcurrentLinkedQueue<>();
    AtomicBoolean producing = new AtomicBoolean(true);
    CountDownLatch produced = new CountDownLatch(PRODUCERS);
    Map<String, Thread> owners = new ConcurrentHashMap<>();
    List<Throwable> failures = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();

    for (int p = 0; p < PRODUCERS; p++) {
      int producer = p;
      Random random = new Random(31L * round + p);
      threads.add(
          new Thread(
              () -> {
                for (int i = 0; i < ITERATIONS; i++) {
                  String key = unique ? "p" + producer + "-" + i : "k" + random.nextInt(KEYS);
                  long delayNanos = Duration.ofMillis(1 + random.nextInt(50)).toNanos();
                  long now = clock.nanoTime();
                  requests.add(new Requested(key, now, now + delayNanos));
                  queue.addAfter(key, Duration.ofNanos(delayNanos));
                }
                produced.countDown();
              }));
    }
    Thread advancer =
        new Thread(
            () -> {
              while (producing.get()) {
                clock.advance(Duration.ofMillis(1));
                Thread.onSpinWait();
              }
            });
    threads.add(advancer);
    for (int w = 0; w < 2; w++) {
      threads.add(
          new Thread(
              () -> {
                try {
                  for (Optional<String> key = queue.get(); key.isPresent(); key = queue.get()) {
                    String k = key.get();
                    if (owners.putIfAbsent(k, Thread.currentThread()) != null) {
                      throw new AssertionError(k + " taken by two workers at once");
                    }
                    gets.add(new Got(k, clock.nanoTime()));
                    owners.remove(k);
                    queue.done(k);
                  }
                } catch (Throwable t) {
                  synchronized (failures) {
                    failures.add(t);
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    produced.await();
    producing.set(false);
    advancer.join();
    clock.advance(Duration.ofSeconds(1));
    Waits.until(
        "every waiting key added and taken",
        () -> queue.waitingCount() == 0 && queue.len() == 0 && owners.isEmpty());
    queue.shutDownWithDrain();
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(failures).isEmpty();
    assertThat(clock.pendingTasks()).isZero();
    Map<String, List<Long>> getTimes = new TreeMap<>();
    for (Got got : gets) {
      getTimes.computeIfAbsent(got.key(), k -> new ArrayList<>()).add(got.at());
    }
    Map<String, List<Requested>> byKey = new ConcurrentHashMap<>();
    for (Requested r : requests) {
      byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
    }
    assertThat(getTimes.keySet()).isEqualTo(byKey.keySet());
    for (var entry : byKey.entrySet()) {
      String key = entry.getKey();
      List<Requested> sorted = new ArrayList<>(entry.getValue());
      sorted.sort(Comparator.comparingLong(Requested::at));
      long[] at = sorted.stream().mapToLong(Requested::at).toArray();
      long[] minDeadline = new long[at.length];
      for (int i = 0; i < at.length; i++) {
        long d = sorted.get(i).deadline();
        minDeadline[i] = i == 0 ? d : Math.min(minDeadline[i - 1], d);
      }
      for (long got : getTimes.get(key)) {
        // Never early: some request made no later than the get had its deadline by then.
        int i = lastAtOrBefore(at, got);
        assertThat(i).as("a request of %s before its get at %d", key, got).isNotNegative();
        assertThat(minDeadline[i])
            .as("earliest deadline of %s before %d", key, got)
            .isLessThanOrEqualTo(got);
      }
      // Never lost: the last request of a key is followed by a get of it.
      assertThat(getTimes.get(key).stream().mapToLong(Long::longValue).max().orElseThrow())
          .as("last get of %s", key)
          .isGreaterThanOrEqualTo(at[at.length - 1]);
    }
    return getTimes;
  }

  /** The index of the last element of sorted {@code at} that is at most {@code t}, or -1. */
  private static int lastAtOrBefore(long[] at, long t) {
    int i = Arrays.binarySearch(at, t);
    if (i < 0) {
      return -i - 2;
    }
    while (i + 1 < at.length && at[i + 1] == t) {
      i++;
    }
    return i;
  }
}
