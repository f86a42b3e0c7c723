package io.podset.operator;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the PodSet controller. Start from {@link #defaults()} and change with the {@code
 * with...} methods; each validates its argument.
 *
 * @param workers reconciles running in parallel (for different PodSets); default 8: a reconcile
 *     mostly waits for the API server, so more workers keep more PodSets progressing at once
 * @param burst the most pods created or deleted for one PodSet in one pass; default {@value
 *     PodSetPlanner#DEFAULT_BURST}, as the ReplicaSet controller
 * @param writeParallelism the most pod writes in flight at once for all PodSets; default 16
 * @param expectationsTimeout how long the reconciler waits for the cache to show its own writes
 *     before acting again anyway (lost events); default 5 minutes, as the ReplicaSet controller
 * @param clock time for conditions, expectations and the controller
 * @param statusDelay how long a status write may wait, after the first of the pods the operator
 *     just created turned Ready, for the others to follow (at most five times as long from the
 *     first write held back; longer windows while the pods keep starting, up to five delays: see
 *     {@link PodSetReconciler}), so that pods becoming Ready one after the other cost about one
 *     status write instead of one per step; a status showing a failure, or with every pod Ready, is
 *     written at once; default 1 s, zero to write every change at once
 */
public record PodSetOptions(
    int workers,
    int burst,
    int writeParallelism,
    Duration expectationsTimeout,
    Clock clock,
    Duration statusDelay) {

  /** The default {@link #statusDelay()}: 1 s. */
  public static final Duration DEFAULT_STATUS_DELAY = Duration.ofSeconds(1);

  /** The longest {@link #statusDelay()}: 1 hour (status writes wait up to five of it). */
  public static final Duration MAX_STATUS_DELAY = Duration.ofHours(1);

  /**
   * @throws IllegalArgumentException if a number is out of range, the timeout is not positive or
   *     the status delay is negative or above {@link #MAX_STATUS_DELAY}
   */
  public PodSetOptions {
    Objects.requireNonNull(expectationsTimeout, "expectationsTimeout");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(statusDelay, "statusDelay");
    if (workers < 1 || workers > 1024) {
      throw new IllegalArgumentException("workers must be between 1 and 1024, got " + workers);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    if (writeParallelism < 1 || writeParallelism > 256) {
      throw new IllegalArgumentException(
          "writeParallelism must be between 1 and 256, got " + writeParallelism);
    }
    if (expectationsTimeout.isNegative() || expectationsTimeout.isZero()) {
      throw new IllegalArgumentException(
          "expectationsTimeout must be positive, got " + expectationsTimeout);
    }
    if (statusDelay.isNegative()) {
      throw new IllegalArgumentException("statusDelay must not be negative, got " + statusDelay);
    }
    if (statusDelay.compareTo(MAX_STATUS_DELAY) > 0) {
      throw new IllegalArgumentException(
          "statusDelay must be at most " + MAX_STATUS_DELAY + ", got " + statusDelay);
    }
  }

  /**
   * 8 workers, burst 500, 16 parallel writes, 5-minute expectations, the system clock, 1 s status
   * delay.
   */
  public static PodSetOptions defaults() {
    return new PodSetOptions(
        8,
        PodSetPlanner.DEFAULT_BURST,
        16,
        Duration.ofMinutes(5),
        Clock.system(),
        DEFAULT_STATUS_DELAY);
  }

  /** These options with {@code workers} reconcile threads. */
  public PodSetOptions withWorkers(int workers) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }

  /** These options with a burst limit of {@code burst} pods per pass. */
  public PodSetOptions withBurst(int burst) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }

  /** These options with {@code writeParallelism} pod writes in flight at most. */
  public PodSetOptions withWriteParallelism(int writeParallelism) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }

  /** These options with another expectations timeout. */
  public PodSetOptions withExpectationsTimeout(Duration expectationsTimeout) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }

  /** These options with another status delay; zero writes every status change at once. */
  public PodSetOptions withStatusDelay(Duration statusDelay) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }

  /** These options with another clock. */
  public PodSetOptions withClock(Clock clock) {
    return new PodSetOptions(
        workers, burst, writeParallelism, expectationsTimeout, clock, statusDelay);
  }
}
