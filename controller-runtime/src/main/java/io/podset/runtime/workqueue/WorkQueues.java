package io.podset.runtime.workqueue;

import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Builds work queues.
 *
 * <pre>{@code
 * RateLimitingQueue<ObjectKey> queue =
 *     WorkQueues.<ObjectKey>builder()
 *         .name("podset")
 *         .clock(clock)
 *         .meterRegistry(registry)
 *         .buildRateLimiting();
 * }</pre>
 */
public final class WorkQueues {

  private WorkQueues() {}

  /** A builder with the system clock, no name, no metrics and the default controller limiter. */
  public static <K> Builder<K> builder() {
    return new Builder<>();
  }

  /**
   * Configures and builds one queue. Each setter validates its argument at once; a builder may
   * build several queues, but a metered name can only be live once per registry.
   *
   * @param <K> the key type
   */
  public static final class Builder<K> {
    private @Nullable String name;
    private Clock clock = Clock.system();
    private @Nullable RateLimiter<K> rateLimiter;
    private @Nullable MeterRegistry meterRegistry;

    private Builder() {}

    /**
     * The queue's name, the {@code name} tag of its metrics.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public Builder<K> name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank: '" + name + "'");
      }
      this.name = name;
      return this;
    }

    /**
     * The clock for delays, timed waits and metrics (default {@link Clock#system()}).
     *
     * @throws NullPointerException if {@code clock} is null
     */
    public Builder<K> clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The limiter of {@link #buildRateLimiting()} (default {@link
     * RateLimiters#defaultControllerRateLimiter(Clock)} on this builder's clock).
     *
     * @throws NullPointerException if {@code rateLimiter} is null
     */
    public Builder<K> rateLimiter(RateLimiter<K> rateLimiter) {
      this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
      return this;
    }

    /**
     * Publishes the {@code workqueue_*} metrics to {@code meterRegistry}; requires a {@link
     * #name(String)}. Without a registry the queue records nothing.
     *
     * @throws NullPointerException if {@code meterRegistry} is null
     */
    public Builder<K> meterRegistry(MeterRegistry meterRegistry) {
      this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
      return this;
    }

    /**
     * Builds a plain {@link WorkQueue}.
     *
     * @throws IllegalStateException if a registry is set without a name, or a live queue of the
     *     same name already publishes metrics in that registry
     */
    public WorkQueue<K> build() {
      return fifo();
    }

    /**
     * Builds a {@link DelayingQueue}.
     *
     * @throws IllegalStateException as {@link #build()}
     */
    public DelayingQueue<K> buildDelaying() {
      return new DelayingWorkQueue<>(fifo());
    }

    /**
     * Builds a {@link RateLimitingQueue} with the configured limiter.
     *
     * @throws IllegalStateException as {@link #build()}
     */
    public RateLimitingQueue<K> buildRateLimiting() {
      RateLimiter<K> limiter =
          rateLimiter != null ? rateLimiter : RateLimiters.defaultControllerRateLimiter(clock);
      return new RateLimitingWorkQueue<>(fifo(), limiter);
    }

    private FifoWorkQueue<K> fifo() {
      if (meterRegistry == null) {
        return new FifoWorkQueue<>(clock, null);
      }
      if (name == null) {
        throw new IllegalStateException("a work queue with a meterRegistry needs a name");
      }
      QueueMetrics metrics = QueueMetrics.create(meterRegistry, name);
      FifoWorkQueue<K> queue = new FifoWorkQueue<>(clock, metrics);
      metrics.bind(queue, name);
      return queue;
    }
  }
}
