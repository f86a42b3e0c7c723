package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.ScriptedListerWatcher.ListCall;
import io.podset.runtime.informer.ScriptedListerWatcher.WatchCall;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.WatchRequest;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReflectorTest {

  private final ManualClock clock = new ManualClock();
  // Off unless a test samples the lag: its waits would be the clock's next deadline.
  private Duration lagSamplePeriod = Duration.ZERO;
  private final ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
  private volatile double random = 0.0;
  private SharedInformer<Pod> informer;

  private SharedInformer<Pod> informer(InformerOptions options) {
    ReflectorConfig config =
        SharedInformers.reflectorConfig(options)
            .withBackoff(Duration.ofMillis(800), Duration.ofSeconds(30), () -> random)
            .withLagSamplePeriod(lagSamplePeriod);
    informer = SharedInformers.create(Pod.class, server, options, clock, config);
    return informer;
  }

  @AfterEach
  void closeInformer() {
    if (informer != null) {
      informer.close();
    }
  }

  /** Starts, answers the first list with {@code pods} at {@code rv} and accepts the watch. */
  private WatchCall<Pod> startSynced(String rv, Pod... pods) {
    informer(InformerOptions.defaults()).start();
    server.nextList().reply(rv, List.of(pods));
    WatchCall<Pod> watch = server.nextWatch().accept();
    Awaits.until(() -> informer.health().healthy(), "synced and watching");
    return watch;
  }

  private void awaitBackoff(Duration expected) {
    Awaits.until(
        () -> clock.nextDeadline().filter(expected::equals).isPresent(),
        "a backoff of " + expected);
  }

  /** Waits for a backoff of {@code expected} and lets it pass. */
  private void passBackoff(Duration expected) {
    awaitBackoff(expected);
    clock.advance(expected);
  }

  /** For each delay in turn: waits for that backoff, lets it pass, and refuses the re-watch. */
  private void refuseWatchesAfter(long... millis) {
    for (long delay : millis) {
      passBackoff(Duration.ofMillis(delay));
      server.nextWatch().fail(Pods.connectionRefused());
    }
  }

  private List<String> cachedVersions() {
    return informer.indexer().list().stream()
        .map(p -> p.getMetadata().getName() + "@" + p.getMetadata().getResourceVersion())
        .sorted()
        .toList();
  }

  @Test
  void firstList_isPaginatedFromVersionZero_thenWatchesFromTheListVersion() {
    CompletableFuture<Void> synced = informer(InformerOptions.defaults()).start();

    ListCall<Pod> first = server.nextList();
    assertThat(first.request).isEqualTo(new ListRequest("0", 500, null));
    first.replyPage("10", "token-1", List.of(pod("a", "3"), pod("b", "4")));
    ListCall<Pod> second = server.nextList();
    assertThat(second.request.continueToken()).isEqualTo("token-1");
    second.reply("10", List.of(pod("c", "9")));

    WatchCall<Pod> watch = server.nextWatch();
    assertThat(watch.request).isEqualTo(new WatchRequest("10", Duration.ofMinutes(5), true, false));
    watch.accept();
    synced.join();
    assertThat(cachedVersions()).containsExactly("a@3", "b@4", "c@9");
    assertThat(informer.lastSyncResourceVersion()).isEqualTo("10");
  }

  @Test
  void watchTimeout_isRandomBetweenFiveAndTenMinutes() {
    random = 0.999;
    informer(InformerOptions.defaults()).start();
    server.nextList().reply("1", List.of());

    Duration timeout = server.nextWatch().request.timeout();

    assertThat(timeout)
        .isGreaterThanOrEqualTo(Duration.ofMinutes(5))
        .isLessThan(Duration.ofMinutes(10));
    assertThat(timeout.toSeconds()).isEqualTo(599);
  }

  @Test
  void bookmark_advancesTheVersion_andACleanEndRewatchesFromItAtOnce() {
    WatchCall<Pod> watch = startSynced("10", pod("a", "5"));

    watch.bookmark("20");
    assertThat(informer.lastSyncResourceVersion()).isEqualTo("20");
    watch.end();

    WatchCall<Pod> next = server.nextWatch();
    assertThat(next.request.resourceVersion()).isEqualTo("20");
    server.assertNoPendingCalls();
  }

  @Test
  void gone_onWatch_relistsAtOnceFromTheLastVersion_andTombstonesVanishedObjects() {
    List<String> deletes = new java.util.concurrent.CopyOnWriteArrayList<>();
    WatchCall<Pod> watch = startSynced("10", pod("a", "5"), pod("b", "6"));
    informer.addEventHandler(
        event -> {
          if (event instanceof Event.Deleted<Pod> delete) {
            deletes.add(delete.object().getMetadata().getName() + ":" + delete.finalStateUnknown());
          }
        });
    watch.modified(pod("b", "11"));

    watch.end(Pods.gone());

    ListCall<Pod> relist = server.nextList();
    assertThat(relist.request.resourceVersion()).isEqualTo("11");
    relist.reply("15", List.of(pod("a", "5")));
    server.nextWatch().accept();
    Awaits.until(() -> deletes.contains("b:true"), "tombstone delete of b");
    assertThat(cachedVersions()).containsExactly("a@5");
    assertThat(informer.health().relistCount()).isEqualTo(1);
  }

  @Test
  void expiredContinueToken_leadsToAnImmediateQuorumRelist() {
    informer(InformerOptions.defaults()).start();
    server.nextList().replyPage("10", "token-1", List.of(pod("a", "3")));
    server.nextList().fail(Pods.gone());

    ListCall<Pod> quorum = server.nextList();

    assertThat(quorum.request).isEqualTo(new ListRequest("", 500, null));
    quorum.reply("12", List.of(pod("a", "3"), pod("b", "11")));
    assertThat(server.nextWatch().request.resourceVersion()).isEqualTo("12");
    Awaits.until(informer::hasSynced, "synced");
    assertThat(cachedVersions()).containsExactly("a@3", "b@11");
  }

  @Test
  void expiredContinueTokenOfAQuorumList_relistsAtOnce_withoutABackoff() {
    informer(InformerOptions.defaults()).start();
    server.nextList().replyPage("10", "token-1", List.of(pod("a", "3")));
    server.nextList().fail(Pods.gone());
    ListCall<Pod> quorum = server.nextList();
    quorum.replyPage("12", "token-2", List.of(pod("a", "3")));
    // Compacted again while the quorum list was read.
    server.nextList().fail(Pods.gone());

    // At once (the relist budget allows it), not after a backoff.
    ListCall<Pod> again = server.nextList();

    assertThat(again.request).isEqualTo(new ListRequest("", 500, null));
    again.reply("14", List.of(pod("a", "3"), pod("b", "13")));
    assertThat(server.nextWatch().request.resourceVersion()).isEqualTo("14");
  }

  @Test
  void failedPage_isAskedAgainFromItsContinueToken_keepingThePagesRead() {
    CompletableFuture<Void> synced = informer(InformerOptions.defaults()).start();
    server.nextList().replyPage("10", "token-1", List.of(pod("a", "3")));
    server.nextList().fail(Pods.internalError());
    passBackoff(Duration.ofMillis(800));
    ListCall<Pod> again = server.nextList();
    assertThat(again.request).isEqualTo(new ListRequest("", 500, "token-1"));
    again.fail(Pods.tooManyRequests(2));
    passBackoff(Duration.ofSeconds(2));

    server.nextList().reply("10", List.of(pod("b", "4")));

    server.nextWatch().accept();
    synced.join();
    assertThat(cachedVersions()).containsExactly("a@3", "b@4");
    assertThat(informer.health().relistCount()).isZero();
  }

  @Test
  void aPageFailingEveryAttempt_failsTheList_thenTheListStartsOverAfterABackoff() {
    informer(InformerOptions.defaults()).start();
    server.nextList().replyPage("10", "token-1", List.of(pod("a", "3")));
    // Page retries: 0.8, 1.6, then 3.2 s capped at 2 s.
    for (long delay : new long[] {800, 1600, 2000}) {
      server.nextList().fail(Pods.internalError());
      awaitBackoff(Duration.ofMillis(delay));
      clock.advance(Duration.ofMillis(delay));
    }
    server.nextList().fail(Pods.internalError());

    // The 4th attempt of the sequence (6.4 s), capped at 2 s for a list a 5xx failed.
    passBackoff(Duration.ofMillis(2000));
    assertThat(server.nextList().request).isEqualTo(new ListRequest("0", 500, null));
  }

  @Test
  void wholeListFailedBy5xxAfterAStreak_startsOverAfterTwoSeconds_aRefusedOneAfterTheFullDelay() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(800, 1600, 2000, 2000);
    passBackoff(Duration.ofMillis(2000));
    server.nextWatch().fail(Pods.gone()); // relists at once
    for (int attempt = 1; attempt < Reflector.PAGE_ATTEMPTS; attempt++) {
      server.nextList().fail(Pods.internalError());
      passBackoff(Duration.ofMillis(2000));
    }
    server.nextList().fail(Pods.internalError());

    // The 10th attempt of the sequence: client-go (and we, before) waited 30 s here, the cache
    // that much further behind; the relist limiter still paces the lists.
    passBackoff(Duration.ofMillis(2000));
    ListCall<Pod> again = server.nextList();
    assertThat(again.request.continueToken()).isNull();
    again.fail(Pods.forbidden());

    awaitBackoff(Duration.ofSeconds(30));
  }

  @Test
  void tooLargeResourceVersion_leadsToAnImmediateQuorumRelist() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.gone());
    ListCall<Pod> relist = server.nextList();
    assertThat(relist.request.resourceVersion()).isEqualTo("10");

    relist.fail(Pods.tooLargeResourceVersion());

    assertThat(server.nextList().request.resourceVersion()).isEmpty();
  }

  @Test
  void connectionErrorsAnd429_backOffAndRewatchWithoutRelisting() {
    WatchCall<Pod> watch = startSynced("10");
    watch.added(pod("a", "12"));

    watch.end(Pods.connectionRefused());
    passBackoff(Duration.ofMillis(800));
    WatchCall<Pod> second = server.nextWatch();
    assertThat(second.request.resourceVersion()).isEqualTo("12");
    second.fail(Pods.tooManyRequests());
    passBackoff(Duration.ofMillis(1600));

    WatchCall<Pod> third = server.nextWatch();
    assertThat(third.request.resourceVersion()).isEqualTo("12");
    server.assertNoPendingCalls();
  }

  @Test
  void backoff_doublesWhileFailing_andStartsOverAfterTwoHealthyMinutes() {
    WatchCall<Pod> watch = startSynced("10");
    watch.added(pod("a", "11"));
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(800, 1600, 2000);
    passBackoff(Duration.ofMillis(2000));
    WatchCall<Pod> healthy = server.nextWatch().accept();
    healthy.added(pod("b", "12"));

    clock.advance(Duration.ofMinutes(2));
    healthy.end(Pods.connectionRefused());

    awaitBackoff(Duration.ofMillis(800));
  }

  @Test
  void rewatchBackoff_stopsGrowingAtTwoSeconds_whileAListAfterItGetsTheLongerDelay() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    // client-go would go on to 3.2, 6.4, 12.8, 25.6 and 30 s (plus jitter) between re-watches.
    refuseWatchesAfter(800, 1600, 2000, 2000, 2000, 2000);
    passBackoff(Duration.ofMillis(2000));
    // A refusal on the re-watch: the relist waits the full delay of the 8th attempt (capped: 30 s).
    server.nextWatch().fail(Pods.forbidden());

    awaitBackoff(Duration.ofSeconds(30));
  }

  @Test
  void pageRetry_afterAStreakOfFailedWatches_waitsAtMostTwoSeconds() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(800, 1600, 2000);
    passBackoff(Duration.ofMillis(2000));
    server.nextWatch().fail(Pods.gone()); // relists at once
    server.nextList().fail(Pods.internalError());

    // The 5th attempt of the sequence (12.8 s), capped: the page is asked again after 2 s.
    passBackoff(Duration.ofMillis(2000));
    server.nextList().reply("20", List.of());
    server.nextWatch().accept();
  }

  @Test
  void rewatchBackoff_withJitter_isTheCapPlusItsJitter() {
    random = 0.5;
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(1000, 2000);

    // 3.2 s capped at 2 s, then its jitter (0.5 * 0.5 of it).
    awaitBackoff(Duration.ofMillis(2500));
  }

  @Test
  void backoff_startsOverOnceAReopenedWatchDeliversAnEvent_notOnlyAfterTwoHealthyMinutes() {
    WatchCall<Pod> watch = startSynced("10");
    watch.added(pod("a", "11"));
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(800, 1600);
    passBackoff(Duration.ofMillis(2000));
    WatchCall<Pod> back = server.nextWatch().accept();
    back.bookmark("12");

    back.end(Pods.connectionRefused());

    // Without the reset 2 s (the re-watch cap); client-go would wait 6.4 s here: its backoff
    // starts over only after 2 min without failure.
    awaitBackoff(Duration.ofMillis(800));
  }

  @Test
  void backoff_startsOverAfterAWatchThatStayedOpen_evenWithoutEvents() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    refuseWatchesAfter(800, 1600);
    passBackoff(Duration.ofMillis(2000));
    WatchCall<Pod> quiet = server.nextWatch().accept(); // open, its events held back
    Awaits.until(() -> informer.health().watching(), "watching");
    clock.advance(Duration.ofSeconds(2));

    quiet.end(Pods.connectionRefused());

    awaitBackoff(Duration.ofMillis(800));
  }

  @Test
  void backoff_startsOverAfterASuccessfulList() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.forbidden()); // a refusal: relist after a backoff
    passBackoff(Duration.ofMillis(800));
    server.nextList().fail(Pods.internalError());
    passBackoff(Duration.ofMillis(1600));
    server.nextList().reply("20", List.of());

    server.nextWatch().fail(Pods.connectionRefused());

    awaitBackoff(Duration.ofMillis(800));
  }

  @Test
  void retryAfter_isTheWaitInsteadOfTheExponentialDelay_andDoesNotGrowIt() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.connectionRefused());
    passBackoff(Duration.ofMillis(800));
    server.nextWatch().fail(Pods.tooManyRequests(3));

    passBackoff(Duration.ofSeconds(3));
    server.nextWatch().fail(Pods.connectionRefused());

    passBackoff(Duration.ofMillis(1600));
    assertThat(server.nextWatch().request.resourceVersion()).isEqualTo("10");
  }

  @Test
  void retryAfter_onAList_isTheWaitBeforeTheNextList() {
    informer(InformerOptions.defaults()).start();

    server.nextList().fail(Pods.tooManyRequests(2));

    passBackoff(Duration.ofSeconds(2));
    server.nextList().reply("5", List.of());
    server.nextWatch().accept();
    Awaits.until(informer::hasSynced, "synced");
  }

  @Test
  void relists_areBoundedPerInformer_aBurstOfThree_thenOnePerTenTimesTheLastListsDuration() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.gone());
    for (int i = 1; i <= 3; i++) {
      // Each relist is answered, then its watch is refused with 410 again: a compaction storm.
      server.nextList().reply(String.valueOf(10 + i), List.of());
      server.nextWatch().fail(Pods.gone());
    }

    // The lists took no time (a manual clock): one per second, the least interval.
    awaitBackoff(Duration.ofSeconds(1));
    server.assertNoPendingCalls();
    clock.advance(Duration.ofSeconds(1));
    ListCall<Pod> slow = server.nextList();
    clock.advance(Duration.ofMillis(400));
    slow.reply("20", List.of());
    server.nextWatch().fail(Pods.gone());
    // That list took 400 ms: one per 4 s, counted from the previous token (1 s after the burst).
    passBackoff(Duration.ofMillis(3600));
    server.nextList().reply("21", List.of());
    server.nextWatch().fail(Pods.gone());
    passBackoff(Duration.ofSeconds(1));
    server.nextList().reply("22", List.of());
    server.nextWatch().accept();
    Awaits.until(() -> informer.health().healthy(), "healthy");
    assertThat(informer.health().relistCount()).isEqualTo(6);
  }

  @Test
  void lag_isTheAgeOfTheOldestServerVersionTheCacheLacks_andZeroOnceCaughtUp() {
    lagSamplePeriod = Duration.ofSeconds(1);
    server.latestVersion("10");
    WatchCall<Pod> watch = startSynced("10");
    assertThat(informer.lag()).as("before the first sample, one period after the start").isEmpty();
    sampleAfterAPeriod();
    assertThat(informer.lag()).contains(Duration.ZERO);

    // The server moved on (its watch events held back): sampled at t = 2 s and t = 3 s.
    server.latestVersion("20");
    sampleAfterAPeriod();
    server.latestVersion("30");
    sampleAfterAPeriod();
    clock.advance(Duration.ofMillis(500));
    assertThat(informer.lag()).as("behind the sample of 20").contains(Duration.ofMillis(1500));

    watch.added(pod("a", "25"));
    Awaits.until(
        () -> informer.lag().equals(Optional.of(Duration.ofMillis(500))),
        "only behind the sample of 30");
    watch.bookmark("30");
    Awaits.until(() -> informer.lag().equals(Optional.of(Duration.ZERO)), "caught up");
    assertThat(server.probes()).isEqualTo(3);
  }

  @Test
  void lag_isUnknownUntilASampleSucceeds() {
    lagSamplePeriod = Duration.ofSeconds(1);
    startSynced("10"); // the probe's reads fail: no version scripted
    sampleAfterAPeriod();

    assertThat(informer.lag()).isEmpty();
    assertThat(server.probes()).isEqualTo(1);
  }

  /** Lets the lag probe's period pass; returns once it took its sample and sleeps again. */
  private void sampleAfterAPeriod() {
    Awaits.until(
        () -> clock.nextDeadline().filter(lagSamplePeriod::equals).isPresent(),
        "the lag probe sleeps");
    int before = server.probes();
    clock.advance(lagSamplePeriod);
    Awaits.until(
        () ->
            server.probes() > before
                && clock.nextDeadline().filter(lagSamplePeriod::equals).isPresent(),
        "the lag probe sampled and sleeps again");
  }

  @Test
  void shortWatchWithoutEvents_backsOff_whileAWatchPastItsTimeoutIsClosedAndReopened() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end();
    passBackoff(Duration.ofMillis(800));
    WatchCall<Pod> second = server.nextWatch().accept();
    Awaits.until(() -> informer.health().watching(), "watching");

    clock.advance(Duration.ofMinutes(5).plusSeconds(30));

    WatchCall<Pod> third = server.nextWatch();
    assertThat(second.closedByClient()).isTrue();
    assertThat(third.request.resourceVersion()).isEqualTo("10");
  }

  @Test
  void health_turnsFalseWhileTheWatchIsFailing_andTrueOnceItIsBack() {
    WatchCall<Pod> watch = startSynced("10");
    assertThat(informer.health().lastError()).isNull();

    watch.end(Pods.connectionRefused());

    Awaits.until(() -> !informer.health().healthy(), "unhealthy");
    InformerHealth failing = informer.health();
    assertThat(failing.watching()).isFalse();
    assertThat(failing.synced()).isTrue();
    assertThat(failing.lastError()).contains("connection refused");
    passBackoff(Duration.ofMillis(800));
    server.nextWatch().accept();
    Awaits.until(() -> informer.health().healthy(), "healthy again");
    assertThat(informer.health().lastError()).isNull();
  }

  @Test
  void healthError_describesTheApiAnswer_asEveryOtherComponentDoes() {
    informer(InformerOptions.defaults()).start();

    server.nextList().fail(Pods.forbidden());

    Awaits.until(() -> informer.health().lastError() != null, "list error in health");
    // One format across the runtime (ApiFailures.describe): the server's message, then the status.
    assertThat(informer.health().lastError())
        .startsWith("list of ")
        .endsWith(" failed: no access (HTTP 403 Forbidden)");
  }

  @Test
  void failingList_isVisibleInHealth_andRetriedAfterBackoff() {
    CompletableFuture<Void> synced = informer(InformerOptions.defaults()).start();

    server.nextList().fail(Pods.forbidden());

    Awaits.until(() -> informer.health().lastError() != null, "list error in health");
    assertThat(informer.health().lastError()).contains("403");
    assertThat(informer.health().synced()).isFalse();
    assertThat(synced).isNotDone();
    passBackoff(Duration.ofMillis(800));
    server.nextList().reply("3", List.of());
    server.nextWatch().accept();
    synced.join();
  }

  @Test
  void streamingList_buildsTheCacheFromInitialEvents_thenKeepsWatching() {
    CompletableFuture<Void> synced =
        informer(InformerOptions.defaults().withStreamingList(true)).start();

    WatchCall<Pod> stream = server.nextWatch();
    assertThat(stream.request.sendInitialEvents()).isTrue();
    assertThat(stream.request.resourceVersion()).isEmpty();
    stream.accept().added(pod("a", "3")).added(pod("b", "4"));
    assertThat(synced).isNotDone();
    stream.initialEventsEnd("10");
    synced.join();
    stream.added(pod("c", "11"));

    Awaits.until(() -> informer.indexer().size() == 3, "three pods cached");
    assertThat(cachedVersions()).containsExactly("a@3", "b@4", "c@11");
    assertThat(informer.lastSyncResourceVersion()).isEqualTo("11");
    server.assertNoPendingCalls();
  }

  @Test
  void streamingList_refusedByTheServer_fallsBackToPlainListsForGood() {
    informer(InformerOptions.defaults().withStreamingList(true)).start();

    server.nextWatch().fail(Pods.invalid());

    server.nextList().reply("10", List.of(pod("a", "3")));
    WatchCall<Pod> watch = server.nextWatch();
    assertThat(watch.request.sendInitialEvents()).isFalse();
    watch.accept().end(Pods.gone());
    assertThat(server.nextList().request.resourceVersion()).isEqualTo("10");
  }

  @Test
  void streamingList_ignoredByTheServer_fallsBackOnAPlainBookmark() {
    informer(InformerOptions.defaults().withStreamingList(true)).start();
    WatchCall<Pod> stream = server.nextWatch().accept();

    stream.added(pod("a", "3")).bookmark("5");

    assertThat(server.nextList().request.resourceVersion()).isEqualTo("0");
    assertThat(stream.closedByClient()).isTrue();
  }

  @Test
  void defaultTransform_stripsManagedFieldsBeforeCaching() {
    startSynced("10", Pods.podWithManagedFields("a", "5"));

    Pod cached = informer.indexer().getByKey("default/a").orElseThrow();

    assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
  }
}
