package io.podset.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ReadYourWritesTest {

  private final ManualClock clock = new ManualClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReadYourWrites barrier = bound(ReadYourWrites.create(clock, Duration.ofSeconds(5)));
  private final FakeInformer<Pod> pods = new FakeInformer<>(Pod.class);
  private final FakeInformer<ConfigMap> pages = new FakeInformer<>(ConfigMap.class);
  private final Request request = new Request("ns", "a");

  private ReadYourWrites bound(ReadYourWrites writes) {
    writes.bind("test", registry);
    return writes;
  }

  private static CompletableFuture<Void> held(ReadYourWrites writes, Request request) {
    return writes.gate().heldBack(request);
  }

  @Test
  void noWrites_nothingHeldBack() {
    assertThat(held(barrier, request)).isNull();
    barrier.wrote(request, List.of());
    assertThat(held(barrier, request)).isNull();
  }

  @Test
  void heldBack_untilEveryInformerObservedItsWrite() {
    barrier.wrote(
        request,
        List.of(new ReadYourWrites.Write(pods, "10"), new ReadYourWrites.Write(pages, "12")));
    CompletableFuture<Void> held = held(barrier, request);
    assertThat(held).isNotNull().isNotDone();

    pods.observe(10);
    pages.observe(11);
    assertThat(held).isNotDone();
    assertThat(held(barrier, request)).isSameAs(held);

    pages.observe(12);
    assertThat(held).isDone();
    assertThat(held(barrier, request)).isNull();
    assertThat(held(barrier, new Request("ns", "other"))).isNull();
  }

  @Test
  void writesRecordedOneByOne_addUp() {
    barrier.wrote(request, pods, "10");
    barrier.wrote(request, pages, "12");

    pods.observe(10);
    assertThat(barrier.observed(request)).isFalse();
    pages.observe(12);
    assertThat(barrier.observed(request)).isTrue();
    assertThat(held(barrier, request)).isNull();
  }

  @Test
  void observed_trustsTheCacheVersion_beforeItsFutureCompletes() {
    AtomicReference<String> version = new AtomicReference<>("5");
    CacheVersion lagging =
        new CacheVersion() {
          @Override
          public String lastObservedResourceVersion() {
            return version.get();
          }

          @Override
          public CompletableFuture<Void> awaitObserved(String resourceVersion) {
            return new CompletableFuture<>(); // completes late, or never
          }
        };
    barrier.wrote(request, lagging, "10");
    CompletableFuture<Void> held = held(barrier, request);
    assertThat(barrier.observed(request)).isFalse();

    version.set("10");

    assertThat(barrier.observed(request)).isTrue();
    assertThat(held).as("the controller re-queues the request").isDone();
    assertThat(held(barrier, request)).isNull();
  }

  @Test
  void writeAlreadyObserved_holdsNothing() {
    pods.observe(20);
    barrier.wrote(request, List.of(new ReadYourWrites.Write(pods, "15")));
    assertThat(held(barrier, request)).isNull();
  }

  @Test
  void timeout_releases_andIsCounted() {
    barrier.wrote(request, List.of(new ReadYourWrites.Write(pods, "10")));
    CompletableFuture<Void> held = held(barrier, request);
    clock.advance(Duration.ofMillis(4999));
    assertThat(held).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(held).isDone();
    assertThat(held(barrier, request)).isNull();
    assertThat(registry.get("controller_runtime_read_your_writes_timeouts").counter().count())
        .isEqualTo(1);
    pods.observe(10); // late: changes nothing
    assertThat(registry.get("controller_runtime_read_your_writes_timeouts").counter().count())
        .isEqualTo(1);
  }

  @Test
  void forget_releases() {
    barrier.wrote(request, List.of(new ReadYourWrites.Write(pods, "10")));
    CompletableFuture<Void> held = held(barrier, request);
    barrier.forget(request);
    assertThat(held).isDone();
    assertThat(held(barrier, request)).isNull();
  }

  @Test
  void nonNumericVersions_areNotWaitedFor() {
    barrier.wrote(request, List.of(new ReadYourWrites.Write(pods, "abc")));
    assertThat(held(barrier, request)).isNull();
  }

  /**
   * Writers record writes at increasing versions while an observer advances the cache: whenever a
   * request is not held back, the cache has observed its last write (no early release), and every
   * hold is released once the cache caught up (no lost wake-up).
   */
  @Test
  void concurrentWritesAndObservations_neverReleaseEarly_andNeverHangs() throws Exception {
    int writers = 8;
    int iterations = 2_000;
    AtomicLong versions = new AtomicLong();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    ReadYourWrites real =
        ReadYourWrites.create(io.podset.runtime.time.Clock.system(), Duration.ofMinutes(5));
    CountDownLatch done = new CountDownLatch(writers);
    Thread observer =
        new Thread(
            () -> {
              while (done.getCount() > 0) {
                pods.observe(versions.get());
                Thread.onSpinWait();
              }
            });
    observer.start();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Request mine = new Request("ns", "r" + w);
      Thread thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < iterations; i++) {
                    CompletableFuture<Void> held = held(real, mine);
                    if (held != null) {
                      held.get(10, TimeUnit.SECONDS);
                      continue;
                    }
                    long version = versions.incrementAndGet();
                    real.wrote(
                        mine, List.of(new ReadYourWrites.Write(pods, Long.toString(version))));
                    CompletableFuture<Void> after = held(real, mine);
                    if (after == null || after.isDone()) {
                      long seen =
                          Long.parseLong(
                              pods.lastObservedResourceVersion() == null
                                  ? "0"
                                  : pods.lastObservedResourceVersion());
                      if (seen < version) {
                        violations.add(mine + " released at " + seen + " before " + version);
                      }
                    }
                  }
                } catch (Exception e) {
                  violations.add(mine + ": " + e);
                } finally {
                  done.countDown();
                }
              });
      threads.add(thread);
      thread.start();
    }
    assertThat(done.await(60, TimeUnit.SECONDS)).as("writers finished").isTrue();
    observer.join();
    pods.observe(versions.get());
    for (int w = 0; w < writers; w++) {
      assertThat(held(real, new Request("ns", "r" + w))).isNull();
    }
    assertThat(violations).isEmpty();
  }
}
