package io.podset.runtime.recorder;

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
 * Collects the records of each (object, type, reason) for a short window, then writes them as one
 * Event (see {@link EventRecorder} for the rules), and rate-limits API writes per involved object.
 *
 * <p>Every {@link #record} is kept; what is limited is how often the API server is written. Each
 * object has a token bucket of API writes ({@code burst}, refilled one per {@code refill}); when it
 * is empty the group stays pending, keeps collecting records, and is written once a token is free.
 * So a reconcile loop that records the same failure a thousand times costs a handful of writes, and
 * the Event still shows the true count.
 *
 * <p>Writes run on {@code io}, which must run one task at a time (the factory gives it one thread).
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
  private final Duration window;
  private final AtomicLong sequence = new AtomicLong();

  private final Object lock = new Object();
  // Guarded by lock. Records not written yet, per (object, type, reason); a group is removed when
  // its write starts, so records arriving during the write open the next window.
  private final Map<GroupKey, Pending> pending = new HashMap<>();
  // Guarded by lock. Events written, per (object, type, reason, message), to raise their count
  // when the same message is recorded again; least recently written evicted first.
  private final LinkedHashMap<SeriesKey, Written> written =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SeriesKey, Written> eldest) {
          return size() > MAX_SERIES;
        }
      };
  // Guarded by lock. API write tokens per involved object uid (or kind/namespace/name).
  private final Map<String, Bucket> buckets = new HashMap<>();

  AggregatingEventRecorder(
      EventSink sink,
      Clock clock,
      Executor io,
      String component,
      String instance,
      int burst,
      Duration refill,
      Duration window) {
    this.sink = sink;
    this.clock = clock;
    this.io = io;
    this.component = component;
    this.instance = instance;
    this.burst = burst;
    this.refillNanos = refill.toNanos();
    this.window = window;
  }

  @Override
  public void record(HasMetadata regarding, Type type, String reason, String message) {
    try {
      Objects.requireNonNull(regarding, "regarding");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(reason, "reason");
      ObjectMeta meta = Objects.requireNonNull(regarding.getMetadata(), "regarding.metadata");
      GroupKey key =
          new GroupKey(
              regarding.getApiVersion(),
              regarding.getKind(),
              meta.getNamespace(),
              meta.getName(),
              meta.getUid(),
              type,
              reason);
      Instant now = clock.instant();
      boolean schedule;
      synchronized (lock) {
        Pending group = pending.get(key);
        schedule = group == null;
        if (group == null) {
          group = new Pending(now);
          pending.put(key, group);
        }
        group.add(message == null ? "" : message, 1, now);
      }
      if (schedule) {
        scheduleFlush(key, window);
      }
    } catch (RuntimeException e) {
      // Events are best-effort: a bad argument must not fail the reconcile that records it.
      log.warn("Dropped event {} about {}: {}", reason, regarding, e.toString());
    }
  }

  private void scheduleFlush(GroupKey key, Duration delay) {
    clock.schedule(delay, () -> io.execute(() -> flush(key)));
  }

  private void flush(GroupKey key) {
    Pending group;
    SeriesKey series;
    Written before;
    int count;
    synchronized (lock) {
      group = pending.get(key);
      if (group == null) {
        return;
      }
      long wait = takeToken(key.bucketId());
      if (wait > 0) {
        scheduleFlush(key, Duration.ofNanos(wait));
        return;
      }
      pending.remove(key);
      series = new SeriesKey(key, EventMessages.combine(group.messages.keySet()));
      before = written.get(series);
      // One message: the Event counts every record of it. Several: one Event tells them all.
      int added = group.messages.size() == 1 ? group.records : 1;
      count = (before == null ? 0 : before.count) + added;
    }
    try {
      String name = before == null ? null : before.eventName;
      if (name == null
          || !sink.updateCount(key.eventNamespace(), name, count, format(group.last))) {
        name = sink.create(newEvent(series, count, group.first, group.last));
      }
      synchronized (lock) {
        written.put(series, new Written(name, count));
      }
    } catch (RuntimeException e) {
      retry(key, group, e);
    }
  }

  /** Puts a group whose write failed back in front of newer records, or drops it for good. */
  private void retry(GroupKey key, Pending failed, RuntimeException e) {
    int failures = failed.failures + 1;
    log.debug("Writing event {} failed (attempt {}): {}", key.reason(), failures, e.toString());
    if (failures >= MAX_FAILURES) {
      log.warn("Dropped event {} after {} failed writes: {}", key.reason(), failures, e.toString());
      return;
    }
    boolean schedule;
    synchronized (lock) {
      Pending newer = pending.get(key);
      schedule = newer == null;
      if (newer != null) {
        newer.messages.forEach((message, n) -> failed.add(message, n, newer.last));
      }
      failed.failures = failures;
      pending.put(key, failed);
    }
    // A newer group already has its flush scheduled; it now writes the failed records too.
    if (schedule) {
      scheduleFlush(key, Duration.ofNanos(refillNanos));
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

  private Event newEvent(SeriesKey series, int count, Instant first, Instant last) {
    GroupKey key = series.group();
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
        .withMessage(series.message())
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

  /** What groups records within a window: the object, the type and the reason. */
  private record GroupKey(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      String uid,
      Type type,
      String reason) {

    String eventNamespace() {
      return namespace == null || namespace.isEmpty() ? "default" : namespace;
    }

    String bucketId() {
      return uid != null ? uid : kind + "/" + namespace + "/" + name;
    }
  }

  /** One written Event: its group and its message. */
  private record SeriesKey(GroupKey group, String message) {}

  /** A written Event's name and count. */
  private record Written(String eventName, int count) {}

  /** The records of one group not written yet; touched only under the recorder's lock. */
  private static final class Pending {
    final Instant first;
    Instant last;
    // Distinct messages in the order first recorded, with how often each was recorded.
    final LinkedHashMap<String, Integer> messages = new LinkedHashMap<>();
    int records;
    int failures;

    Pending(Instant first) {
      this.first = first;
      this.last = first;
    }

    void add(String message, int times, Instant at) {
      messages.merge(message, times, Integer::sum);
      records += times;
      if (at.isAfter(last)) {
        last = at;
      }
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
