package io.podset.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkQueueMetricsTest {

  private final ManualClock clock = new ManualClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RateLimitingQueue<String> queue =
      WorkQueues.<String>builder()
          .name("podset")
          .clock(clock)
          .meterRegistry(registry)
          .rateLimiter(RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofSeconds(10)))
          .buildRateLimiting();

  private double gauge(String name) {
    Gauge gauge = registry.find(name).tag("name", "podset").gauge();
    assertThat(gauge).as(name).isNotNull();
    return gauge.value();
  }

  private double counter(String name) {
    return registry.get(name).tag("name", "podset").counter().count();
  }

  private Timer timer(String name) {
    return registry.get(name).tag("name", "podset").timer();
  }

  @Test
  void depthAndAdds_countDistinctAdds() {
    queue.add("a");
    queue.add("a");
    queue.add("b");

    assertThat(gauge(QueueMetrics.DEPTH)).isEqualTo(2.0);
    assertThat(counter(QueueMetrics.ADDS)).isEqualTo(2.0);
  }

  @Test
  void queueDuration_measuresTimeFromAddToGet() throws InterruptedException {
    queue.add("a");
    clock.advance(Duration.ofMillis(250));

    queue.poll(Duration.ZERO);

    assertThat(timer(QueueMetrics.QUEUE_DURATION).count()).isEqualTo(1);
    assertThat(timer(QueueMetrics.QUEUE_DURATION).totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(250.0);
  }

  @Test
  void workDurationAndRunningGauges_followProcessing() throws InterruptedException {
    queue.add("a");
    queue.add("b");
    queue.poll(Duration.ZERO);
    clock.advance(Duration.ofSeconds(2));
    queue.poll(Duration.ZERO);
    clock.advance(Duration.ofSeconds(1));

    assertThat(gauge(QueueMetrics.LONGEST_RUNNING)).isEqualTo(3.0);
    assertThat(gauge(QueueMetrics.UNFINISHED_WORK)).isEqualTo(4.0);

    queue.done("a");

    assertThat(timer(QueueMetrics.WORK_DURATION).totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
    assertThat(gauge(QueueMetrics.LONGEST_RUNNING)).isEqualTo(1.0);
    assertThat(gauge(QueueMetrics.UNFINISHED_WORK)).isEqualTo(1.0);

    queue.done("b");

    assertThat(gauge(QueueMetrics.LONGEST_RUNNING)).isZero();
    assertThat(gauge(QueueMetrics.UNFINISHED_WORK)).isZero();
    assertThat(timer(QueueMetrics.WORK_DURATION).count()).isEqualTo(2);
  }

  @Test
  void queueDuration_ofKeyReaddedWhileProcessing_countsFromTheAdd() throws InterruptedException {
    queue.add("a");
    queue.poll(Duration.ZERO);
    queue.add("a");
    clock.advance(Duration.ofSeconds(1));
    queue.done("a");
    clock.advance(Duration.ofSeconds(1));

    queue.poll(Duration.ZERO);

    assertThat(timer(QueueMetrics.QUEUE_DURATION).totalTime(TimeUnit.SECONDS)).isEqualTo(2.0);
  }

  @Test
  void retries_countRateLimitedAdds() {
    queue.addRateLimited("a");
    queue.addRateLimited("a");

    assertThat(counter(QueueMetrics.RETRIES)).isEqualTo(2.0);
    assertThat(counter(QueueMetrics.ADDS)).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(counter(QueueMetrics.ADDS)).isEqualTo(1.0);
  }

  @Test
  void sameName_isRejectedWhileLive_andReusableAfterShutDown() {
    assertThatThrownBy(
            () ->
                WorkQueues.<String>builder()
                    .name("podset")
                    .meterRegistry(registry)
                    .clock(clock)
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("podset");

    queue.shutDown();

    assertThat(registry.find(QueueMetrics.DEPTH).gauges()).isEmpty();
    WorkQueue<String> next =
        WorkQueues.<String>builder().name("podset").meterRegistry(registry).clock(clock).build();
    next.add("x");
    assertThat(gauge(QueueMetrics.DEPTH)).isEqualTo(1.0);
  }

  @Test
  void meterRegistry_withoutName_isRejected() {
    assertThatThrownBy(() -> WorkQueues.<String>builder().meterRegistry(registry).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("name");
  }

  @Test
  void builder_rejectsBadArguments() {
    assertThatThrownBy(() -> WorkQueues.<String>builder().name(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(() -> WorkQueues.<String>builder().clock(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("clock");
    assertThatThrownBy(() -> WorkQueues.<String>builder().rateLimiter(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("rateLimiter");
  }

  @Test
  void allMetricNames_areControllerRuntimes() {
    // SimpleMeterRegistry shows each histogram bucket as an extra "<name>.histogram" gauge.
    assertThat(registry.getMeters())
        .extracting(meter -> meter.getId().getName())
        .filteredOn(name -> !name.endsWith(".histogram"))
        .containsExactlyInAnyOrder(
            "workqueue_depth",
            "workqueue_adds_total",
            "workqueue_queue_duration_seconds",
            "workqueue_work_duration_seconds",
            "workqueue_retries_total",
            "workqueue_unfinished_work_seconds",
            "workqueue_longest_running_processor_seconds");
  }
}
