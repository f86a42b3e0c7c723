package io.podset.runtime.informer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer's meters, tagged {@code name} (the informer's name), in the style of the {@code
 * workqueue_*} family (Prometheus names shown):
 *
 * <ul>
 *   <li>{@code informer_lists_total}: lists completed, plain or streaming, the first included;
 *   <li>{@code informer_relists_total}: lists completed after the first;
 *   <li>{@code informer_watches_total}: watches opened;
 *   <li>{@code informer_watch_restarts_total{reason}}: watches that ended and were followed by
 *       another list or watch, by {@link RestartReason};
 *   <li>{@code informer_events_total{type}}: watch events received ({@code added}, {@code
 *       modified}, {@code deleted}, {@code bookmark}), the initial events of a streaming list
 *       included;
 *   <li>{@code informer_last_sync_age_seconds}: seconds since the informer last moved its
 *       resourceVersion forward (a list, an event or a bookmark), on the informer's clock; NaN
 *       before the first list. It grows on a quiet resource whose server sends no bookmarks;
 *   <li>{@code informer_lag_seconds}: how far the cache is behind the server, as defined by {@link
 *       CacheLag}: the age of the oldest change the server was seen to have (sampled) that the
 *       cache has not applied yet, 0 when none; NaN before the first sample or with sampling off;
 *   <li>{@code informer_cache_size}: objects in the informer's cache.
 * </ul>
 *
 * <p>Counters are looked up once; recording is a plain meter call. The gauges are removed on {@link
 * #close()} so a later informer may reuse the name; while another live informer of the same name
 * publishes gauges in the registry, this one publishes none (and says so in the log) rather than
 * report the other's. {@link #none()} records nothing.
 */
final class InformerMetrics {

  static final String LISTS = "informer_lists";
  static final String RELISTS = "informer_relists";
  static final String WATCHES = "informer_watches";
  static final String WATCH_RESTARTS = "informer_watch_restarts";
  static final String EVENTS = "informer_events";
  static final String LAST_SYNC_AGE = "informer_last_sync_age_seconds";
  static final String CACHE_SIZE = "informer_cache_size";
  static final String LAG = "informer_lag_seconds";

  /** Why a watch ended before the next list or watch (the {@code reason} tag). */
  enum RestartReason {
    /** 410 Gone: the version fell out of the server's history; a relist follows. */
    GONE("gone"),
    /** The connection broke, or 429/5xx: a re-watch follows after a backoff. */
    DROPPED("dropped"),
    /** Any other refusal (403, 400, ...): a relist follows after a backoff. */
    ERROR("error"),
    /** Ended without error or events in under a second: a re-watch follows after a backoff. */
    SHORT("short"),
    /** Ended without error (the server's or the client's timeout): a re-watch follows at once. */
    ENDED("ended");

    final String tag;

    RestartReason(String tag) {
      this.tag = tag;
    }

    /** The reason for a watch that failed to open or ended with {@code e}. */
    static RestartReason of(RuntimeException e) {
      if (ApiErrors.isGone(e)) {
        return GONE;
      }
      return ApiErrors.isRetriableWatchError(e) ? DROPPED : ERROR;
    }
  }

  private static final Logger log = LoggerFactory.getLogger(InformerMetrics.class);
  // A composite registry without registries makes no-op meters: an unmetered informer counts
  // into those instead of checking for a registry at each event.
  private static final InformerMetrics NONE = new InformerMetrics(null, "none");

  // Null for no meters.
  private final @Nullable MeterRegistry registry;
  private final Counter lists;
  private final Counter relists;
  private final Counter watches;
  // By RestartReason ordinal.
  private final Counter[] restarts = new Counter[RestartReason.values().length];
  private final Counter added;
  private final Counter modified;
  private final Counter deleted;
  private final Counter bookmarks;
  // Guarded by this: the gauges bound to the informer, removed (and cleared) by close().
  private List<Meter> gauges = List.of();

  private InformerMetrics(@Nullable MeterRegistry registry, String name) {
    this.registry = registry;
    MeterRegistry counters = registry != null ? registry : new CompositeMeterRegistry();
    Tags tags = Tags.of("name", name);
    lists =
        counter(counters, LISTS, tags, "Lists completed, plain or streaming, the first included");
    relists = counter(counters, RELISTS, tags, "Lists completed after the first");
    watches = counter(counters, WATCHES, tags, "Watches opened");
    for (RestartReason reason : RestartReason.values()) {
      restarts[reason.ordinal()] =
          counter(
              counters,
              WATCH_RESTARTS,
              tags.and("reason", reason.tag),
              "Watches that ended and were followed by another list or watch, by reason");
    }
    added = event(counters, tags, "added");
    modified = event(counters, tags, "modified");
    deleted = event(counters, tags, "deleted");
    bookmarks = event(counters, tags, "bookmark");
  }

  /** Records nothing. */
  static InformerMetrics none() {
    return NONE;
  }

  /**
   * The meters of informer {@code name} in {@code registry}; the gauges come with {@link #bind}.
   */
  static InformerMetrics create(MeterRegistry registry, String name) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(name, "name");
    return new InformerMetrics(registry, name);
  }

  /**
   * Registers the gauges: the cache size, the age of the last sync and the lag, read when scraped.
   *
   * @param lastSync when the resourceVersion last moved forward, or null before the first list
   * @param lag the cache lag now, or null while unknown
   */
  synchronized void bind(
      String name,
      IntSupplier cacheSize,
      Supplier<Instant> lastSync,
      Supplier<Duration> lag,
      Clock clock) {
    if (registry == null) {
      return;
    }
    if (registry.find(CACHE_SIZE).tag("name", name).gauge() != null) {
      log.warn(
          "Another live informer named '{}' publishes gauges in this registry; this one"
              + " publishes none",
          name);
      return;
    }
    Tags tags = Tags.of("name", name);
    gauges =
        List.of(
            Gauge.builder(CACHE_SIZE, cacheSize, s -> s.getAsInt())
                .description("Objects in the informer's cache")
                .tags(tags)
                .strongReference(true)
                .register(registry),
            Gauge.builder(LAST_SYNC_AGE, lastSync, s -> ageSeconds(s.get(), clock))
                .description(
                    "Seconds since the informer last moved its resourceVersion forward (a list, an"
                        + " event or a bookmark)")
                .baseUnit("seconds")
                .tags(tags)
                .strongReference(true)
                .register(registry),
            Gauge.builder(LAG, lag, s -> seconds(s.get()))
                .description(
                    "Age of the oldest change the server was seen to have (sampled) that the"
                        + " cache has not applied yet")
                .baseUnit("seconds")
                .tags(tags)
                .strongReference(true)
                .register(registry));
  }

  void listed(boolean relist) {
    lists.increment();
    if (relist) {
      relists.increment();
    }
  }

  void watchOpened() {
    watches.increment();
  }

  void watchRestarted(RestartReason reason) {
    restarts[reason.ordinal()].increment();
  }

  void received(WatchEvent<?> event) {
    Counter counter;
    if (event instanceof WatchEvent.Added<?>) {
      counter = added;
    } else if (event instanceof WatchEvent.Modified<?>) {
      counter = modified;
    } else if (event instanceof WatchEvent.Deleted<?>) {
      counter = deleted;
    } else {
      counter = bookmarks;
    }
    counter.increment();
  }

  /** Removes the gauges; counters stay, as cumulative series do. Idempotent. */
  synchronized void close() {
    MeterRegistry bound = registry;
    for (Meter gauge : gauges) {
      if (bound != null) {
        bound.remove(gauge);
      }
    }
    gauges = List.of();
  }

  private static double seconds(@Nullable Duration duration) {
    return duration == null ? Double.NaN : duration.toNanos() / 1e9;
  }

  private static double ageSeconds(@Nullable Instant lastSync, Clock clock) {
    if (lastSync == null) {
      return Double.NaN;
    }
    return Duration.between(lastSync, clock.instant()).toNanos() / 1e9;
  }

  private static Counter event(MeterRegistry registry, Tags tags, String type) {
    return counter(
        registry,
        EVENTS,
        tags.and("type", type),
        "Watch events received, by type, initial events included");
  }

  private static Counter counter(
      MeterRegistry registry, String name, Tags tags, String description) {
    return Counter.builder(name).description(description).tags(tags).register(registry);
  }
}
