package io.podset.operator;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * PodSets whose next write waits after a refused one: {@code first} after the first failure in a
 * row, doubling with each further one up to {@code max}, and never less than the server's
 * Retry-After. The reconciler answers a pass that comes sooner (a pod event, the controller's
 * retry, which starts at 5 ms) without writing, with a requeue at the end of the wait: the changes
 * made meanwhile are then written together, in one pass.
 *
 * <p>Why: fabric8's own retries are off in the operator (every failure reaches the controller's
 * backoff and metrics), so a refused write came back within milliseconds, and again on each pod
 * event of its PodSet, while the fault that refused it usually lasted seconds: a throttled server
 * (429 with Retry-After, which client-go's REST client waits out inside the request) met the same
 * PodSet several times a second, and a status write refused once was sent again on every pass.
 * Waiting between two failures bounds that to one attempt per wait; the doubling spaces the
 * attempts against a failure that lasts (the controller's own backoff starts over at each requeue).
 *
 * <p>One entry per PodSet whose last write of this kind failed, until one succeeds or the PodSet is
 * {@linkplain #forget forgotten}. Times are on the reconciler's clock. Thread-safe.
 *
 * @param <K> the PodSet key type
 */
final class WritePauses<K> {

  /** A PodSet's wait: until when, after how many failures in a row. */
  private static final class Pause {
    Instant until;
    int failures;

    Pause(Instant until) {
      this.until = until;
    }
  }

  private final Duration first;
  private final Duration max;
  private final Object lock = new Object();
  // Guarded by lock. PodSets whose last write of this kind failed.
  private final Map<K, Pause> pauses = new HashMap<>();

  /**
   * @throws IllegalArgumentException if {@code first} is negative or {@code max} is below it
   */
  WritePauses(Duration first, Duration max) {
    this.first = Objects.requireNonNull(first, "first");
    this.max = Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException(
          "write pauses need 0 <= first <= max, got first " + first + ", max " + max);
    }
  }

  /**
   * A write for {@code key} failed at {@code now}; {@code retryAfter} is the wait the server asked
   * for, or null. Returns how long its next write waits.
   */
  Duration failed(K key, Duration retryAfter, Instant now) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(now, "now");
    synchronized (lock) {
      Pause pause = pauses.computeIfAbsent(key, k -> new Pause(now));
      pause.failures++;
      Duration wait = first.multipliedBy(1L << Math.min(pause.failures - 1, 30));
      if (wait.compareTo(max) > 0) {
        wait = max;
      }
      if (retryAfter != null && retryAfter.compareTo(wait) > 0) {
        wait = retryAfter;
      }
      Instant until = now.plus(wait);
      if (until.isAfter(pause.until)) {
        pause.until = until;
      }
      return Duration.between(now, pause.until);
    }
  }

  /** How much longer {@code key}'s next write waits at {@code now}: zero when it need not. */
  Duration remaining(K key, Instant now) {
    Objects.requireNonNull(now, "now");
    synchronized (lock) {
      Pause pause = pauses.get(key);
      if (pause == null || !pause.until.isAfter(now)) {
        return Duration.ZERO;
      }
      return Duration.between(now, pause.until);
    }
  }

  /** A write for {@code key} succeeded (or the PodSet is gone): the next failure starts over. */
  void forget(K key) {
    synchronized (lock) {
      pauses.remove(key);
    }
  }
}
