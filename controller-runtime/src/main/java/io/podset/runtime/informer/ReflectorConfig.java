package io.podset.runtime.informer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

/**
 * Tuning of a {@link Reflector}; the defaults are client-go's.
 *
 * @param pageSize list page size (500)
 * @param minWatchTimeout watches last a random time in [min, 2 * min) (5 min)
 * @param initialBackoff first retry delay (800 ms)
 * @param maxBackoff cap of the doubling delays (30 s)
 * @param maxResumeBackoff cap of the delays before re-opening a watch from the last version or
 *     asking a failed list page again (2 s; not client-go's: see {@link Reflector})
 * @param backoffReset the delays start over once this long has passed since the previous one began
 *     (2 min)
 * @param jitter each delay grows by up to this fraction of itself (0.5)
 * @param random source of uniform numbers in [0, 1) for timeouts and jitter
 * @param streamingList try a streaming list (watch with sendInitialEvents) before a plain list
 * @param streamingListTimeout give up on a streaming list whose end bookmark has not come by then
 * @param relistBurst relists allowed back to back ({@link RelistLimiter}; 3)
 * @param relistInterval once the burst is spent, one more relist per interval of at most this (5
 *     s): ten times what the last list took, at least a fifth of this; zero for no bound
 * @param lagSamplePeriod how often the server's newest resourceVersion is sampled for the cache lag
 *     ({@link CacheLag}; 5 s); zero for never
 */
record ReflectorConfig(
    int pageSize,
    Duration minWatchTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration maxResumeBackoff,
    Duration backoffReset,
    double jitter,
    DoubleSupplier random,
    boolean streamingList,
    Duration streamingListTimeout,
    int relistBurst,
    Duration relistInterval,
    Duration lagSamplePeriod) {

  ReflectorConfig {
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    Objects.requireNonNull(minWatchTimeout, "minWatchTimeout");
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (Objects.requireNonNull(maxResumeBackoff, "maxResumeBackoff").compareTo(initialBackoff)
        < 0) {
      throw new IllegalArgumentException(
          "maxResumeBackoff must be at least initialBackoff ("
              + initialBackoff
              + "): "
              + maxResumeBackoff);
    }
    Objects.requireNonNull(backoffReset, "backoffReset");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(streamingListTimeout, "streamingListTimeout");
    if (relistBurst <= 0) {
      throw new IllegalArgumentException("relistBurst must be positive: " + relistBurst);
    }
    if (Objects.requireNonNull(relistInterval, "relistInterval").isNegative()) {
      throw new IllegalArgumentException("relistInterval must not be negative: " + relistInterval);
    }
    if (Objects.requireNonNull(lagSamplePeriod, "lagSamplePeriod").isNegative()) {
      throw new IllegalArgumentException(
          "lagSamplePeriod must not be negative: " + lagSamplePeriod);
    }
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
        Duration.ofSeconds(2),
        Duration.ofMinutes(2),
        0.5,
        () -> ThreadLocalRandom.current().nextDouble(),
        false,
        Duration.ofMinutes(1),
        3,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5));
  }

  ReflectorConfig withStreamingList(boolean enabled) {
    return edit(b -> b.streamingList = enabled);
  }

  ReflectorConfig withPageSize(int size) {
    return edit(b -> b.pageSize = size);
  }

  ReflectorConfig withBackoff(Duration initial, Duration max, DoubleSupplier rnd) {
    return edit(
        b -> {
          b.initialBackoff = initial;
          b.maxBackoff = max;
          b.random = rnd;
        });
  }

  ReflectorConfig withRelistLimit(int burst, Duration interval) {
    return edit(
        b -> {
          b.relistBurst = burst;
          b.relistInterval = interval;
        });
  }

  ReflectorConfig withLagSamplePeriod(Duration period) {
    return edit(b -> b.lagSamplePeriod = period);
  }

  /** A copy with {@code change} applied, validated as any config. */
  private ReflectorConfig edit(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The components of a config, to change some of them. */
  private static final class Copy {
    int pageSize;
    Duration minWatchTimeout;
    Duration initialBackoff;
    Duration maxBackoff;
    Duration maxResumeBackoff;
    Duration backoffReset;
    double jitter;
    DoubleSupplier random;
    boolean streamingList;
    Duration streamingListTimeout;
    int relistBurst;
    Duration relistInterval;
    Duration lagSamplePeriod;

    Copy(ReflectorConfig c) {
      pageSize = c.pageSize;
      minWatchTimeout = c.minWatchTimeout;
      initialBackoff = c.initialBackoff;
      maxBackoff = c.maxBackoff;
      maxResumeBackoff = c.maxResumeBackoff;
      backoffReset = c.backoffReset;
      jitter = c.jitter;
      random = c.random;
      streamingList = c.streamingList;
      streamingListTimeout = c.streamingListTimeout;
      relistBurst = c.relistBurst;
      relistInterval = c.relistInterval;
      lagSamplePeriod = c.lagSamplePeriod;
    }

    ReflectorConfig build() {
      return new ReflectorConfig(
          pageSize,
          minWatchTimeout,
          initialBackoff,
          maxBackoff,
          maxResumeBackoff,
          backoffReset,
          jitter,
          random,
          streamingList,
          streamingListTimeout,
          relistBurst,
          relistInterval,
          lagSamplePeriod);
    }
  }
}
