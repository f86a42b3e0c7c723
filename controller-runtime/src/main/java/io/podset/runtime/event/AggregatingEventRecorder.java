package io.podset.runtime.event;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aggregates identical events into one Event whose count grows, and rate-limits API writes per
 * involved object.
 *
 * <p>Every {@link #record} is counted; what is limited is how often the count reaches the API
 * server. Each object has a token bucket of API writes ({@code burst}, refilled one per {@code
 * refill}); when it is empty the pending count is written once a token is free. So a reconcile loop
 * that records the same failure a thousand times costs a handful of writes, and the Event still
 * shows the true count.
 */
final class AggregatingEventRecorder implements EventRecorder {

  private static final Logger log = LoggerFactory.getLogger(AggregatingEventRecorder.class);
  private static final int MAX_SERIES = 4096;
  private static final int MAX_FAILURES = 5;

  private final EventSink sink;
  private final Clock clock;
  private final Executor io;
  private final String component;
  private final String instance;
  private final int burst;
  private final long refillNanos;
  private final AtomicLong sequence = new AtomicLong();

  private final Object lock = new Object();
  // Guarded by lock. Least recently recorded series are evicted first.
  private final LinkedHashMap<SeriesKey, Series> series =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SeriesKey, Series> eldest) {
          return size() > MAX_SERIES;
        }
      };
  // Guarded by lock. API write tokens per involved object uid (or namespace/name).
  private final Map<String, Bucket> buckets = new HashMap<>();

  AggregatingEventRecorder(
      EventSink sink,
      Clock clock,
      Executor io,
      String component,
      String instance,
      int burst,
      Duration refill) {
    this.sink = sink;
    this.clock = clock;
    this.io = io;
    this.component = component;
    this.instance = instance;
    this.burst = burst;
    this.refillNanos = refill.toNanos();
  }

  @Override
  public void record(HasMetadata regarding, Type type, String reason, String message) {
    try {
      Objects.requireNonNull(regarding, "regarding");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(reason, "reason");
      ObjectMeta meta = Objects.requireNonNull(regarding.getMetadata(), "regarding.metadata");
      SeriesKey key =
          new SeriesKey(
              regarding.getApiVersion(),
              regarding.getKind(),
              meta.getNamespace(),
              meta.getName(),
              meta.getUid(),
              type,
              reason,
              message == null ? "" : message);
      Instant now = clock.instant();
      boolean schedule;
      synchronized (lock) {
        Series s = series.computeIfAbsent(key, k -> new Series(now));
        s.count++;
        s.last = now;
        schedule = !s.flushScheduled;
        s.flushScheduled = true;
      }
      if (schedule) {
        clock.schedule(Duration.ZERO, () -> io.execute(() -> flush(key)));
      }
    } catch (RuntimeException e) {
      // Events are best-effort: a bad argument must not fail the reconcile that records it.
      log.warn("Dropped event {} about {}: {}", reason, regarding, e.toString());
    }
  }

  private void flush(SeriesKey key) {
    Series s;
    int count;
    String name;
    Instant first;
    Instant last;
    synchronized (lock) {
      s = series.get(key);
      if (s == null) {
        return; // evicted
      }
      long wait = takeToken(key.bucketId());
      if (wait > 0) {
        clock.schedule(Duration.ofNanos(wait), () -> io.execute(() -> flush(key)));
        return;
      }
      s.flushScheduled = false;
      count = s.count;
      name = s.eventName;
      first = s.first;
      last = s.last;
    }
    try {
      if (name == null || !sink.updateCount(key.eventNamespace(), name, count, format(last))) {
        Event created = sink.create(newEvent(key, count, first, last));
        synchronized (lock) {
          s.eventName = created.getMetadata().getName();
        }
      }
      synchronized (lock) {
        s.failures = 0;
      }
    } catch (RuntimeException e) {
      boolean retry;
      synchronized (lock) {
        retry = ++s.failures < MAX_FAILURES && !s.flushScheduled;
        if (retry) {
          s.flushScheduled = true;
        }
      }
      log.debug("Writing event {} failed (attempt {}): {}", key.reason(), s.failures, e.toString());
      if (retry) {
        clock.schedule(Duration.ofNanos(refillNanos), () -> io.execute(() -> flush(key)));
      }
    }
  }

  /** Takes a write token for the object; returns 0, or the nanoseconds until one is free. */
  private long takeToken(String bucketId) {
    long now = clock.nanoTime();
    Bucket bucket = buckets.computeIfAbsent(bucketId, id -> new Bucket(burst, now));
    long refilled = (now - bucket.updatedNanos) / refillNanos;
    if (refilled > 0) {
      bucket.tokens = (int) Math.min(burst, bucket.tokens + refilled);
      bucket.updatedNanos += refilled * refillNanos;
    }
    if (bucket.tokens > 0) {
      bucket.tokens--;
      return 0;
    }
    return Math.max(1, bucket.updatedNanos + refillNanos - now);
  }

  private Event newEvent(SeriesKey key, int count, Instant first, Instant last) {
    // client-go names events <object>.<hex unix nanos>; the sequence keeps two series recorded
    // in the same nanosecond apart.
    long unixNanos = first.getEpochSecond() * 1_000_000_000L + first.getNano();
    return new EventBuilder()
        .withNewMetadata()
        .withNamespace(key.eventNamespace())
        .withName(key.name() + "." + Long.toHexString(unixNanos + sequence.getAndIncrement()))
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(key.apiVersion())
        .withKind(key.kind())
        .withNamespace(key.namespace())
        .withName(key.name())
        .withUid(key.uid())
        .endInvolvedObject()
        .withType(key.type().name())
        .withReason(key.reason())
        .withMessage(key.message())
        .withCount(count)
        .withFirstTimestamp(format(first))
        .withLastTimestamp(format(last))
        .withNewSource()
        .withComponent(component)
        .endSource()
        .withReportingComponent(component)
        .withReportingInstance(instance)
        .build();
  }

  private static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** What makes two events the same: the object, type, reason and message. */
  private record SeriesKey(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      String uid,
      Type type,
      String reason,
      String message) {

    String eventNamespace() {
      return namespace == null || namespace.isEmpty() ? "default" : namespace;
    }

    String bucketId() {
      return uid != null ? uid : kind + "/" + namespace + "/" + name;
    }
  }

  /** Aggregation state of one series; touched only under the recorder's lock. */
  private static final class Series {
    final Instant first;
    Instant last;
    int count;
    String eventName;
    boolean flushScheduled;
    int failures;

    Series(Instant first) {
      this.first = first;
      this.last = first;
    }
  }

  /** API write tokens of one object; touched only under the recorder's lock. */
  private static final class Bucket {
    int tokens;
    long updatedNanos;

    Bucket(int tokens, long updatedNanos) {
      this.tokens = tokens;
      this.updatedNanos = updatedNanos;
    }
  }
}
