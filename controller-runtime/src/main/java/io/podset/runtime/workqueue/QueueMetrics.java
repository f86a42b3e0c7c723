package io.podset.runtime.workqueue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * controller-runtime's {@code workqueue_*} meters for one named queue, tagged {@code name}.
 *
 * <p>Counters and timers are looked up once, so recording is a plain meter call made outside the
 * queue's lock. The gauges read the queue (under its lock) only when the registry is scraped; they
 * are removed when the queue has shut down, so a later queue may reuse the name.
 */
final class QueueMetrics {

  static final String DEPTH = "workqueue_depth";
  static final String ADDS = "workqueue_adds_total";
  static final String QUEUE_DURATION = "workqueue_queue_duration_seconds";
  static final String WORK_DURATION = "workqueue_work_duration_seconds";
  static final String RETRIES = "workqueue_retries_total";
  static final String UNFINISHED_WORK = "workqueue_unfinished_work_seconds";
  static final String LONGEST_RUNNING = "workqueue_longest_running_processor_seconds";

  /** controller-runtime's buckets: 10 ns to 1000 s, one per power of ten. */
  private static final Duration[] BUCKETS = buckets();

  private final MeterRegistry registry;
  private final Counter adds;
  private final Counter retries;
  private final Timer queueDuration;
  private final Timer workDuration;
  // Guarded by this: the gauges bound to the queue, removed (and cleared) by close().
  private List<Meter> gauges = List.of();

  private QueueMetrics(MeterRegistry registry, String name) {
    this.registry = registry;
    Tags tags = Tags.of("name", name);
    this.adds =
        Counter.builder(ADDS)
            .description("Total number of adds handled by the workqueue")
            .tags(tags)
            .register(registry);
    this.retries =
        Counter.builder(RETRIES)
            .description("Total number of retries handled by the workqueue")
            .tags(tags)
            .register(registry);
    this.queueDuration =
        timer(
            registry,
            QUEUE_DURATION,
            tags,
            "How long an item stays in the queue before being requested");
    this.workDuration =
        timer(registry, WORK_DURATION, tags, "How long processing an item from the queue takes");
  }

  /**
   * Creates the meters of queue {@code name}.
   *
   * @throws IllegalStateException if a live queue of that name already publishes gauges there
   */
  static QueueMetrics create(MeterRegistry registry, String name) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(name, "name");
    if (registry.find(DEPTH).tag("name", name).gauge() != null) {
      throw new IllegalStateException(
          "a work queue named '" + name + "' already publishes metrics in this registry");
    }
    return new QueueMetrics(registry, name);
  }

  /** Registers the gauges that read {@code queue}; called once the queue is constructed. */
  synchronized void bind(FifoWorkQueue<?> queue, String name) {
    Tags tags = Tags.of("name", name);
    gauges =
        List.of(
            Gauge.builder(DEPTH, queue, FifoWorkQueue::len)
                .description("Current depth of the workqueue")
                .tags(tags)
                .register(registry),
            Gauge.builder(UNFINISHED_WORK, queue, FifoWorkQueue::unfinishedWorkSeconds)
                .description(
                    "How many seconds of work has been done that is in progress and hasn't been"
                        + " observed by work_duration")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry),
            Gauge.builder(LONGEST_RUNNING, queue, FifoWorkQueue::longestRunningSeconds)
                .description("How many seconds has the longest running processor been running")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry));
  }

  void added() {
    adds.increment();
  }

  void retried() {
    retries.increment();
  }

  void queued(long nanos) {
    queueDuration.record(nanos, TimeUnit.NANOSECONDS);
  }

  void worked(long nanos) {
    workDuration.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Removes the gauges; counters and timers stay, as cumulative series do. Idempotent. */
  synchronized void close() {
    for (Meter gauge : gauges) {
      registry.remove(gauge);
    }
    gauges = List.of();
  }

  private static Timer timer(MeterRegistry registry, String name, Tags tags, String description) {
    return Timer.builder(name)
        .description(description)
        .tags(tags)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  private static Duration[] buckets() {
    Duration[] buckets = new Duration[12];
    long nanos = 10L;
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = Duration.ofNanos(nanos);
      nanos *= 10L;
    }
    return buckets;
  }
}
