package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.ScriptedListerWatcher.WatchCall;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SharedInformerTest {

  private final ManualClock clock = new ManualClock();
  private final ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
  private final SharedInformer<Pod> informer =
      SharedInformers.create(
          Pod.class,
          server,
          InformerOptions.defaults(),
          clock,
          ReflectorConfig.defaults()
              .withBackoff(Duration.ofMillis(800), Duration.ofSeconds(30), () -> 0.0));

  @AfterEach
  void closeInformer() {
    informer.close();
  }

  private WatchCall<Pod> startSynced(String rv, Pod... pods) {
    CompletableFuture<Void> synced = informer.start();
    server.nextList().reply(rv, List.of(pods));
    WatchCall<Pod> watch = server.nextWatch().accept();
    synced.join();
    return watch;
  }

  @Test
  void watchEvents_updateTheCacheAndReachHandlersInOrder() {
    Recorder recorder = new Recorder();
    HandlerRegistration registration = informer.addEventHandler(recorder);
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"));

    watch.added(pod("b", "11")).modified(pod("a", "12")).deleted(pod("b", "13"));

    recorder.awaitCount(4);
    // Order is guaranteed per object (keys pop in the order they were first queued).
    assertThat(recorder.events)
        .containsExactlyInAnyOrder("add:a@1", "add:b@11", "update:a@1->a@12", "delete:b@13");
    assertThat(recorder.events.indexOf("add:b@11"))
        .isLessThan(recorder.events.indexOf("delete:b@13"));
    assertThat(recorder.events.get(0)).isEqualTo("add:a@1");
    assertThat(informer.indexer().listKeys()).containsExactly("default/a");
    Awaits.until(registration::hasSynced, "registration synced");
  }

  @Test
  void lateHandler_receivesSyntheticAddsForTheCache_thenLiveEvents() {
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"), pod("b", "2"));
    Recorder late = new Recorder();

    HandlerRegistration registration = informer.addEventHandler(late);
    watch.modified(pod("a", "11"));

    late.awaitCount(3);
    assertThat(late.events.subList(0, 2)).containsExactlyInAnyOrder("add:a@1", "add:b@2");
    assertThat(late.events.get(2)).isEqualTo("update:a@1->a@11");
    Awaits.until(registration::hasSynced, "late registration synced");
  }

  @Test
  void lateHandler_syncedFuture_completesOnlyAfterTheSyntheticAddsWereHandled() throws Exception {
    startSynced("10", pod("a", "1"), pod("b", "2"));
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    HandlerRegistration registration =
        informer.addEventHandler(
            event -> {
              if (!(event instanceof Event.Added)) {
                return;
              }
              entered.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    assertThat(entered.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(registration.synced()).isNotDone();
    assertThat(registration.hasSynced()).isFalse();

    release.countDown();
    registration.synced().get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(registration.hasSynced()).isTrue();
  }

  @Test
  void throwingHandler_doesNotStopOthers_norItself() {
    AtomicInteger thrown = new AtomicInteger();
    informer.addEventHandler(
        event -> {
          if (!(event instanceof Event.Added)) {
            return;
          }
          thrown.incrementAndGet();
          throw new IllegalStateException("handler bug");
        });
    Recorder healthy = new Recorder();
    informer.addEventHandler(healthy);
    WatchCall<Pod> watch = startSynced("10");

    watch.added(pod("a", "11")).added(pod("b", "12")).added(pod("c", "13"));

    healthy.awaitCount(3);
    Awaits.until(() -> thrown.get() == 3, "the failing handler called for every add");
  }

  /** A recorder that also notes the threads it was called on. */
  private static final class ThreadRecorder extends Recorder {
    final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void onEvent(Event<Pod> event) {
      threads.add(Thread.currentThread());
      super.onEvent(event);
    }
  }

  @Test
  void watchEvent_withNothingPending_reachesCacheAndInlineHandler_beforeTheWatchCallReturns() {
    ThreadRecorder inline = new ThreadRecorder();
    HandlerRegistration registration = informer.addInlineEventHandler(inline);
    Recorder threaded = new Recorder();
    informer.addEventHandler(threaded);
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"));
    inline.threads.clear();

    watch.modified(pod("a", "11")).added(pod("b", "12")).deleted(pod("b", "13"));

    // No waiting: the watch's thread (here, the test's) applied and delivered each event itself.
    assertThat(inline.events)
        .containsExactly("add:a@1", "update:a@1->a@11", "add:b@12", "delete:b@13");
    assertThat(inline.threads).containsOnly(Thread.currentThread());
    assertThat(
            informer
                .indexer()
                .getByKey("default/a")
                .orElseThrow()
                .getMetadata()
                .getResourceVersion())
        .isEqualTo("11");
    assertThat(informer.lastObservedResourceVersion()).isEqualTo("13");
    assertThat(registration.hasSynced()).isTrue();
    threaded.awaitCount(4);
    assertThat(threaded.events).isEqualTo(inline.events);
  }

  @Test
  void lateInlineHandler_getsTheSyntheticAddsBeforeRegistrationReturns_thenLiveEvents() {
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"), pod("b", "2"));
    ThreadRecorder late = new ThreadRecorder();

    HandlerRegistration registration = informer.addInlineEventHandler(late);

    assertThat(late.events).containsExactlyInAnyOrder("add:a@1", "add:b@2");
    assertThat(late.threads).containsOnly(Thread.currentThread());
    registration.synced().join();
    watch.modified(pod("a", "11"));
    assertThat(late.events).endsWith("update:a@1->a@11");
  }

  @Test
  void throwingInlineHandler_doesNotStopOthers_norItself() {
    AtomicInteger thrown = new AtomicInteger();
    informer.addInlineEventHandler(
        event -> {
          if (!(event instanceof Event.Added)) {
            return;
          }
          thrown.incrementAndGet();
          throw new IllegalStateException("handler bug");
        });
    Recorder healthy = new Recorder();
    informer.addInlineEventHandler(healthy);
    WatchCall<Pod> watch = startSynced("10");

    watch.added(pod("a", "11")).added(pod("b", "12")).added(pod("c", "13"));

    assertThat(thrown).hasValue(3);
    assertThat(healthy.events).containsExactly("add:a@11", "add:b@12", "add:c@13");
    assertThat(informer.indexer().listKeys()).hasSize(3);
  }

  @Test
  void closedInlineRegistration_getsNothingMore() {
    Recorder inline = new Recorder();
    HandlerRegistration registration = informer.addInlineEventHandler(inline);
    WatchCall<Pod> watch = startSynced("10");
    watch.added(pod("a", "11"));

    registration.close();
    watch.added(pod("b", "12"));

    assertThat(inline.events).containsExactly("add:a@11");
  }

  @Test
  void slowHandler_doesNotHoldUpOthers() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger slowCalls = new AtomicInteger();
    informer.addEventHandler(
        event -> {
          if (!(event instanceof Event.Added)) {
            return;
          }
          slowCalls.incrementAndGet();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    Recorder fast = new Recorder();
    informer.addEventHandler(fast);
    WatchCall<Pod> watch = startSynced("10");

    for (int i = 0; i < 100; i++) {
      watch.added(pod("p" + i, String.valueOf(11 + i)));
    }

    fast.awaitCount(100);
    assertThat(slowCalls.get()).isLessThanOrEqualTo(1);
    Awaits.until(() -> slowCalls.get() == 1, "slow handler blocked in its first call");
    release.countDown();
    Awaits.until(() -> slowCalls.get() == 100, "slow handler catches up");
  }

  @Test
  void perHandlerResync_sendsUpdatesOnlyToHandlersThatAreDue() {
    Recorder every10s = new Recorder();
    Recorder never = new Recorder();
    informer.addEventHandler(every10s, Duration.ofSeconds(10));
    informer.addEventHandler(never, Duration.ZERO);
    startSynced("10", pod("a", "1"));
    every10s.awaitCount(1);
    never.awaitCount(1);

    clock.advance(Duration.ofSeconds(10));

    every10s.awaitCount(2);
    assertThat(every10s.events).containsExactly("add:a@1", "update:a@1->a@1");
    clock.advance(Duration.ofSeconds(10));
    every10s.awaitCount(3);
    assertThat(never.events).containsExactly("add:a@1");
  }

  @Test
  void resyncPeriod_belowOneSecond_isRaisedToOneSecond() {
    Recorder recorder = new Recorder();
    informer.addEventHandler(recorder, Duration.ofMillis(100));
    startSynced("10", pod("a", "1"));
    recorder.awaitCount(1);

    assertThat(clock.nextDeadline()).isPresent();
    assertThat(clock.nextDeadline().get()).isEqualTo(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));

    recorder.awaitCount(2);
  }

  @Test
  void relistWithUnchangedObjects_isAResync_notAnUpdateForNonSyncingHandlers() {
    Recorder recorder = new Recorder();
    informer.addEventHandler(recorder);
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"), pod("b", "2"));
    recorder.awaitCount(2);

    watch.end(Pods.gone());
    server.nextList().reply("20", List.of(pod("a", "1"), pod("b", "15")));
    server.nextWatch().accept();

    recorder.awaitCount(3);
    assertThat(recorder.events).containsExactly("add:a@1", "add:b@2", "update:b@2->b@15");
  }

  @Test
  void awaitObserved_completesOnceTheCacheHasTheWrite() {
    WatchCall<Pod> watch = startSynced("10");
    CompletableFuture<Void> barrier = informer.awaitObserved("12");
    assertThat(informer.awaitObserved("9")).isDone();

    watch.added(pod("a", "11"));
    assertThat(barrier).isNotDone();
    watch.modified(pod("a", "12"));

    barrier.join();
    assertThat(
            informer
                .indexer()
                .getByKey("default/a")
                .orElseThrow()
                .getMetadata()
                .getResourceVersion())
        .isEqualTo("12");
    assertThat(informer.lastObservedResourceVersion()).isEqualTo("12");
    assertThatThrownBy(() -> informer.awaitObserved("abc")).hasMessageContaining("abc");
  }

  @Test
  void following_whileItsWatchTalksAndShowsOwnWritesInTime_notWhenSilentOrLate() {
    Duration tolerance = Duration.ofMillis(250);
    Duration silence = Duration.ofSeconds(2);
    assertThat(informer.following(tolerance, silence)).as("before the first list").isFalse();
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"));
    Awaits.until(() -> informer.following(tolerance, silence), "following once watching");

    // Nothing applied (no event, no bookmark) for longer than the silence allowed: a held watch.
    clock.advance(silence.plusMillis(1));
    assertThat(informer.following(tolerance, silence)).as("silent").isFalse();
    watch.bookmark("11");
    Awaits.until(() -> informer.following(tolerance, silence), "following after a bookmark");

    // An own write the watch does not show within the tolerance: its events are held or late.
    CompletableFuture<Void> write = informer.awaitObserved("12");
    clock.advance(tolerance);
    assertThat(informer.following(tolerance, silence)).as("write just within").isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(informer.following(tolerance, silence)).as("write waiting too long").isFalse();
    // Shown late: what the last echo said holds until a newer one says otherwise.
    watch.modified(pod("a", "12"));
    write.join();
    assertThat(informer.following(tolerance, silence)).as("shown late").isFalse();
    CompletableFuture<Void> next = informer.awaitObserved("13");
    watch.modified(pod("a", "13"));
    next.join();
    assertThat(informer.following(tolerance, silence)).as("shown at once").isTrue();

    // No watch open (re-opening after it ended): not following.
    watch.end();
    Awaits.until(() -> !informer.following(tolerance, silence), "not following without a watch");
  }

  @Test
  void faultedWithin_aBrokenWatchOrARelist_forTheWindowAfter_notAWatchThatEndsAtItsTimeout() {
    Duration window = Duration.ofSeconds(10);
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"));
    Awaits.until(() -> informer.health().watching(), "watching");
    assertThat(informer.faultedWithin(window)).as("after the first list").isFalse();

    // The server ends a watch that delivered events (its timeout): opened again, no fault.
    watch.bookmark("11").end();
    WatchCall<Pod> second = server.nextWatch().accept();
    Awaits.until(() -> informer.health().watching(), "watching again");
    assertThat(informer.faultedWithin(window)).as("after a watch's clean end").isFalse();

    // A broken connection: a fault while the watch is down and for the window after.
    second.end(Pods.connectionRefused());
    Awaits.until(
        () -> clock.nextDeadline().filter(Duration.ofMillis(800)::equals).isPresent(),
        "the re-watch backoff (800 ms, no jitter)");
    assertThat(informer.faultedWithin(window)).as("while re-opening").isTrue();
    clock.advance(Duration.ofMillis(800));
    WatchCall<Pod> third = server.nextWatch().accept();
    Awaits.until(() -> informer.health().watching(), "watching after the backoff");
    assertThat(informer.following(Duration.ofMillis(250), window)).as("following").isTrue();
    assertThat(informer.faultedWithin(window)).as("recovered, within the window").isTrue();
    clock.advance(window.minusMillis(800));
    assertThat(informer.faultedWithin(window)).as("a window after the break").isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(informer.faultedWithin(window)).as("after the window").isFalse();

    // A relist (410 on the watch): what changed meanwhile arrives at once, a fault too.
    third.end(Pods.gone());
    server.nextList().reply("20", List.of(pod("a", "19")));
    server.nextWatch().accept();
    Awaits.until(() -> informer.health().watching(), "watching after the relist");
    assertThat(informer.health().relistCount()).isEqualTo(1);
    assertThat(informer.faultedWithin(window)).as("after a relist").isTrue();
    clock.advance(window.plusMillis(1));
    assertThat(informer.faultedWithin(window)).as("a window after the relist").isFalse();
  }

  @Test
  void addIndexers_areQueryableThroughTheInformer() {
    informer.addIndexers(Map.of(Indexers.NAMESPACE, Indexers.byNamespace()));
    startSynced("10", pod("ns1", "a", "1"), pod("ns2", "b", "2"));

    assertThat(informer.indexer().indexKeys(Indexers.NAMESPACE, "ns2")).containsExactly("ns2/b");
  }

  @Test
  void closedRegistration_receivesNoMoreEvents() {
    Recorder removed = new Recorder();
    Recorder kept = new Recorder();
    HandlerRegistration registration = informer.addEventHandler(removed);
    informer.addEventHandler(kept);
    WatchCall<Pod> watch = startSynced("10", pod("a", "1"));
    removed.awaitCount(1);

    registration.close();
    watch.added(pod("b", "11"));

    kept.awaitCount(2);
    assertThat(removed.events).containsExactly("add:a@1");
  }

  @Test
  void close_cancelsThePendingStart_andStopsWatching() {
    CompletableFuture<Void> synced = informer.start();
    server.nextList();

    informer.close();

    assertThat(synced).isCancelled();
    assertThat(informer.waitForCacheSync(Duration.ofMillis(10))).isFalse();
    assertThat(informer.health().watching()).isFalse();
    assertThatThrownBy(informer::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void transform_returningAnotherType_isReportedAsAnError() {
    SharedInformer<Pod> bad =
        SharedInformers.create(
            Pod.class,
            server,
            InformerOptions.defaults()
                .withTransform(obj -> new io.fabric8.kubernetes.api.model.ConfigMap()),
            clock);
    try {
      bad.start();
      server.nextList().reply("1", List.of(pod("a", "1")));
      Awaits.until(() -> bad.health().lastError() != null, "error in health");
      assertThat(bad.health().lastError())
          .contains("transform must return a io.fabric8.kubernetes.api.model.Pod");
    } finally {
      bad.close();
    }
  }
}
