package io.podset.runtime.informer;

import static io.podset.runtime.informer.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.informer.ScriptedListerWatcher.WatchCall;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InformerMetricsTest {

  private static final String NAME = "Pod[scripted]";

  private final ManualClock clock = new ManualClock();
  // Off unless a test samples the lag: its waits would be the clock's next deadline.
  private Duration lagSamplePeriod = Duration.ZERO;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<SharedInformer<Pod>> informers = new ArrayList<>();

  private SharedInformer<Pod> informer(ScriptedListerWatcher<Pod> server) {
    InformerOptions options = InformerOptions.defaults();
    ReflectorConfig config =
        SharedInformers.reflectorConfig(options)
            .withBackoff(Duration.ofMillis(800), Duration.ofSeconds(30), () -> 0.0)
            .withLagSamplePeriod(lagSamplePeriod);
    SharedInformer<Pod> informer =
        SharedInformers.create(Pod.class, server, options, clock, config, registry);
    informers.add(informer);
    return informer;
  }

  @AfterEach
  void closeInformers() {
    informers.forEach(SharedInformer::close);
  }

  private double count(String name, String... tags) {
    Counter counter = registry.find(name).tag("name", NAME).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }

  private Gauge gauge(String name) {
    return registry.find(name).tag("name", NAME).gauge();
  }

  private void awaitCount(String name, double expected, String... tags) {
    Awaits.until(
        () -> count(name, tags) == expected, name + " " + List.of(tags) + " = " + expected);
  }

  private void advanceBackoff(Duration expected) {
    Awaits.until(
        () -> clock.nextDeadline().filter(expected::equals).isPresent(),
        "a backoff of " + expected);
    clock.advance(expected);
  }

  @Test
  void listWatchAndEvents_areCountedByType_andTheCacheSizeIsAGauge() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    informer(server).start();
    server.nextList().reply("10", List.of(pod("a", "3"), pod("b", "4")));
    WatchCall<Pod> watch = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 1);
    Awaits.until(() -> gauge(InformerMetrics.CACHE_SIZE).value() == 2, "cache size 2");

    watch.added(pod("c", "11")).added(pod("d", "12")).modified(pod("a", "13"));
    watch.deleted(pod("b", "14")).bookmark("15");

    assertThat(count(InformerMetrics.LISTS)).isEqualTo(1);
    assertThat(count(InformerMetrics.RELISTS)).isZero();
    assertThat(count(InformerMetrics.EVENTS, "type", "added")).isEqualTo(2);
    assertThat(count(InformerMetrics.EVENTS, "type", "modified")).isEqualTo(1);
    assertThat(count(InformerMetrics.EVENTS, "type", "deleted")).isEqualTo(1);
    assertThat(count(InformerMetrics.EVENTS, "type", "bookmark")).isEqualTo(1);
    Awaits.until(() -> gauge(InformerMetrics.CACHE_SIZE).value() == 3, "cache size 3");
  }

  @Test
  void lagGauge_isNaNWhileUnknown_thenTheSampledLag() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    informer(server).start();
    assertThat(gauge(InformerMetrics.LAG).value()).isNaN(); // sampling is off here

    lagSamplePeriod = Duration.ofSeconds(1);
    ScriptedListerWatcher<Pod> sampled = new ScriptedListerWatcher<>();
    sampled.latestVersion("10");
    informers.get(0).close(); // frees the name for the next informer's gauges
    informer(sampled).start();
    sampled.nextList().reply("5", List.of());
    sampled.nextWatch().accept();
    Awaits.until(
        () -> clock.nextDeadline().filter(Duration.ofSeconds(1)::equals).isPresent(), "sleeping");
    clock.advance(Duration.ofSeconds(1));
    Awaits.until(() -> sampled.probes() >= 1, "a sample");
    Awaits.until(
        () -> clock.nextDeadline().filter(Duration.ofSeconds(1)::equals).isPresent(), "sampled");
    clock.advance(Duration.ofSeconds(1));

    Awaits.until(() -> gauge(InformerMetrics.LAG).value() >= 1.0, "one second behind version 10");
  }

  @Test
  void watchRestarts_areCountedByReason_andRelistsApart() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    informer(server).start();
    server.nextList().reply("10", List.of());
    WatchCall<Pod> first = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 1);

    first.end(Pods.gone()); // relisted at once
    server.nextList().reply("12", List.of());
    WatchCall<Pod> second = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 2);

    // The relist reset the backoff.
    second.end(Pods.connectionRefused());
    advanceBackoff(Duration.ofMillis(800));
    server.nextWatch().fail(Pods.forbidden());
    advanceBackoff(Duration.ofMillis(1600));
    server.nextList().reply("13", List.of());
    WatchCall<Pod> third = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 3);

    third.end(); // at once, without events: suspicious
    advanceBackoff(Duration.ofMillis(800));
    WatchCall<Pod> fourth = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 4);

    fourth.added(pod("a", "14")).end(); // a normal end: re-watched at once
    server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 5);

    assertThat(count(InformerMetrics.WATCH_RESTARTS, "reason", "gone")).isEqualTo(1);
    assertThat(count(InformerMetrics.WATCH_RESTARTS, "reason", "dropped")).isEqualTo(1);
    assertThat(count(InformerMetrics.WATCH_RESTARTS, "reason", "error")).isEqualTo(1);
    assertThat(count(InformerMetrics.WATCH_RESTARTS, "reason", "short")).isEqualTo(1);
    assertThat(count(InformerMetrics.WATCH_RESTARTS, "reason", "ended")).isEqualTo(1);
    assertThat(count(InformerMetrics.LISTS)).isEqualTo(3);
    assertThat(count(InformerMetrics.RELISTS)).isEqualTo(2);
  }

  @Test
  void lastSyncAge_isNaNBeforeTheFirstList_thenGrowsWithTheClockUntilTheNextBookmark() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    informer(server).start();
    Gauge age = gauge(InformerMetrics.LAST_SYNC_AGE);
    assertThat(age.value()).isNaN();

    server.nextList().reply("10", List.of());
    WatchCall<Pod> watch = server.nextWatch().accept();
    awaitCount(InformerMetrics.WATCHES, 1);
    assertThat(age.value()).isZero();

    clock.advance(Duration.ofSeconds(7));
    assertThat(age.value()).isCloseTo(7.0, within(1e-9));

    watch.bookmark("11");
    assertThat(age.value()).isZero();
  }

  @Test
  void close_removesTheGauges_soALaterInformerMayReuseTheName() {
    ScriptedListerWatcher<Pod> firstServer = new ScriptedListerWatcher<>();
    SharedInformer<Pod> first = informer(firstServer);
    first.start();
    firstServer.nextList().reply("10", List.of(pod("a", "3")));
    firstServer.nextWatch().accept();
    Awaits.until(() -> gauge(InformerMetrics.CACHE_SIZE).value() == 1, "first cache size 1");

    first.close();
    assertThat(gauge(InformerMetrics.CACHE_SIZE)).isNull();
    assertThat(gauge(InformerMetrics.LAST_SYNC_AGE)).isNull();

    ScriptedListerWatcher<Pod> secondServer = new ScriptedListerWatcher<>();
    informer(secondServer).start();
    secondServer.nextList().reply("20", List.of(pod("a", "3"), pod("b", "4")));
    secondServer.nextWatch().accept();
    Awaits.until(() -> gauge(InformerMetrics.CACHE_SIZE).value() == 2, "second cache size 2");
    assertThat(count(InformerMetrics.LISTS)).isEqualTo(2);
  }

  @Test
  void sameNameWhileTheFirstLives_theFirstKeepsItsGauges() {
    ScriptedListerWatcher<Pod> firstServer = new ScriptedListerWatcher<>();
    informer(firstServer).start();
    firstServer.nextList().reply("10", List.of(pod("a", "3")));
    firstServer.nextWatch().accept();
    Awaits.until(() -> gauge(InformerMetrics.CACHE_SIZE).value() == 1, "first cache size 1");

    SharedInformer<Pod> second = informer(new ScriptedListerWatcher<>());
    second.close();

    assertThat(gauge(InformerMetrics.CACHE_SIZE)).isNotNull();
    assertThat(gauge(InformerMetrics.CACHE_SIZE).value()).isEqualTo(1);
  }

  @Test
  void withoutARegistry_noMeterIsPublished() {
    ScriptedListerWatcher<Pod> server = new ScriptedListerWatcher<>();
    SharedInformer<Pod> informer =
        SharedInformers.create(Pod.class, server, InformerOptions.defaults(), clock);
    informers.add(informer);
    informer.start();
    server.nextList().reply("10", List.of(pod("a", "3")));
    server.nextWatch().accept().added(pod("b", "11"));

    assertThat(registry.getMeters()).isEmpty();
  }
}
