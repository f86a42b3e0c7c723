package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.informer.ScriptedListerWatcher.ListCall;
import io.podset.runtime.informer.ScriptedListerWatcher.WatchCall;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReflectorTest {

  private final ManualClock clock = new ManualClock();
  private final ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
  private volatile double random = 0.0;
  private SharedInformer<Pod> informer;

  private SharedInformer<Pod> informer(InformerOptions options) {
    ReflectorConfig config =
        SharedInformers.reflectorConfig(options)
            .withBackoff(Duration.ofMillis(800), Duration.ofSeconds(30), () -> random);
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
  void gone_onWatch_relistsFromTheLastVersionAfterBackoff_andTombstonesVanishedObjects() {
    List<String> deletes = new java.util.concurrent.CopyOnWriteArrayList<>();
    WatchCall<Pod> watch = startSynced("10", pod("a", "5"), pod("b", "6"));
    informer.addEventHandler(
        new ResourceEventHandler<Pod>() {
          @Override
          public void onDelete(Pod obj, boolean finalStateUnknown) {
            deletes.add(obj.getMetadata().getName() + ":" + finalStateUnknown);
          }
        });
    watch.modified(pod("b", "11"));

    watch.end(Pods.gone());
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));

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
  void tooLargeResourceVersion_leadsToAnImmediateQuorumRelist() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end(Pods.gone());
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
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
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
    WatchCall<Pod> second = server.nextWatch();
    assertThat(second.request.resourceVersion()).isEqualTo("12");
    second.fail(Pods.tooManyRequests());
    awaitBackoff(Duration.ofMillis(1600));
    clock.advance(Duration.ofMillis(1600));

    WatchCall<Pod> third = server.nextWatch();
    assertThat(third.request.resourceVersion()).isEqualTo("12");
    server.assertNoPendingCalls();
  }

  @Test
  void backoff_doublesWhileFailing_andStartsOverAfterTwoHealthyMinutes() {
    WatchCall<Pod> watch = startSynced("10");
    watch.added(pod("a", "11"));
    watch.end(Pods.connectionRefused());
    for (long millis : new long[] {800, 1600, 3200, 6400}) {
      awaitBackoff(Duration.ofMillis(millis));
      clock.advance(Duration.ofMillis(millis));
      server.nextWatch().fail(Pods.connectionRefused());
    }
    awaitBackoff(Duration.ofMillis(12800));
    clock.advance(Duration.ofMillis(12800));
    WatchCall<Pod> healthy = server.nextWatch().accept();
    healthy.added(pod("b", "12"));

    clock.advance(Duration.ofMinutes(2));
    healthy.end(Pods.connectionRefused());

    awaitBackoff(Duration.ofMillis(800));
  }

  @Test
  void shortWatchWithoutEvents_backsOff_whileAWatchPastItsTimeoutIsClosedAndReopened() {
    WatchCall<Pod> watch = startSynced("10");
    watch.end();
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
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
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
    server.nextWatch().accept();
    Awaits.until(() -> informer.health().healthy(), "healthy again");
    assertThat(informer.health().lastError()).isNull();
  }

  @Test
  void failingList_isVisibleInHealth_andRetriedAfterBackoff() {
    CompletableFuture<Void> synced = informer(InformerOptions.defaults()).start();

    server.nextList().fail(Pods.forbidden());

    Awaits.until(() -> informer.health().lastError() != null, "list error in health");
    assertThat(informer.health().lastError()).contains("403");
    assertThat(informer.health().synced()).isFalse();
    assertThat(synced).isNotDone();
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
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
    awaitBackoff(Duration.ofMillis(800));
    clock.advance(Duration.ofMillis(800));
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
