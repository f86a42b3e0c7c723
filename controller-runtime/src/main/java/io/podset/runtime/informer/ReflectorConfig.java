package io.podset.runtime.informer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Tuning of a {@link Reflector}; the defaults are client-go's.
 *
 * @param pageSize list page size (500)
 * @param minWatchTimeout watches last a random time in [min, 2 * min) (5 min)
 * @param initialBackoff first retry delay (800 ms)
 * @param maxBackoff cap of the doubling delays (30 s)
 * @param backoffReset the delays start over once this long has passed since the previous one began
 *     (2 min)
 * @param jitter each delay grows by up to this fraction of itself (0.5)
 * @param random source of uniform numbers in [0, 1) for timeouts and jitter
 * @param streamingList try a streaming list (watch with sendInitialEvents) before a plain list
 * @param streamingListTimeout give up on a streaming list whose end bookmark has not come by then
 */
record ReflectorConfig(
    int pageSize,
    Duration minWatchTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration backoffReset,
    double jitter,
    DoubleSupplier random,
    boolean streamingList,
    Duration streamingListTimeout) {

  ReflectorConfig {
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    Objects.requireNonNull(minWatchTimeout, "minWatchTimeout");
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(backoffReset, "backoffReset");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(streamingListTimeout, "streamingListTimeout");
  }

  /** A random watch timeout in [min, 2 * min), whole seconds, at least one. */
  Duration watchTimeout() {
    double r = random.getAsDouble();
    long seconds = (long) (minWatchTimeout.toSeconds() * (1.0 + r));
    return Duration.ofSeconds(Math.max(1, seconds));
  }

  static ReflectorConfig defaults() {
    return new ReflectorConfig(
        500,
        Duration.ofMinutes(5),
        Duration.ofMillis(800),
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        0.5,
        () -> ThreadLocalRandom.current().nextDouble(),
        false,
        Duration.ofMinutes(1));
  }

  ReflectorConfig withStreamingList(boolean enabled) {
    return new ReflectorConfig(
        pageSize,
        minWatchTimeout,
        initialBackoff,
        maxBackoff,
        backoffReset,
        jitter,
        random,
        enabled,
        streamingListTimeout);
  }

  ReflectorConfig withPageSize(int size) {
    return new ReflectorConfig(
        size,
        minWatchTimeout,
        initialBackoff,
        maxBackoff,
        backoffReset,
        jitter,
        random,
        streamingList,
        streamingListTimeout);
  }

  ReflectorConfig withBackoff(Duration initial, Duration max, DoubleSupplier rnd) {
    return new ReflectorConfig(
        pageSize,
        minWatchTimeout,
        initial,
        max,
        backoffReset,
        jitter,
        rnd,
        streamingList,
        streamingListTimeout);
  }
}
