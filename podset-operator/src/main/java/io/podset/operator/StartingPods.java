package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * When this operator last created pods for each PodSet, so that a status write can wait a little
 * for the new pods to become Ready: pods created together become Ready one after the other, and
 * writing the status at every step cost up to one status write per pod (1595 status writes for 1000
 * PodSets of 3 pods in the converge benchmark). The wait is bounded by the delay from the creation,
 * measured on the reconciler's clock. Thread-safe.
 *
 * @param <K> the PodSet key type
 */
final class StartingPods<K> {

  private final Duration delay;
  private final Object lock = new Object();
  // Guarded by lock. A key is absent when its last creations are older than the delay, or all
  // its pods were Ready when last asked.
  private final Map<K, Instant> createdAt = new HashMap<>();

  StartingPods(Duration delay) {
    this.delay = Objects.requireNonNull(delay, "delay");
  }

  /** Pods were created for {@code key} at {@code now}. */
  void created(K key, Instant now) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(now, "now");
    if (delay.isZero()) {
      return;
    }
    synchronized (lock) {
      createdAt.put(key, now);
    }
  }

  /**
   * How much longer a status write for {@code key} should wait: zero when no pods were created for
   * it within the delay before {@code now}, or when every one of {@code active} is Ready; otherwise
   * what is left of the delay.
   */
  Duration waitFor(K key, Collection<Pod> active, Instant now) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(active, "active");
    Objects.requireNonNull(now, "now");
    synchronized (lock) {
      Instant created = createdAt.get(key);
      if (created == null) {
        return Duration.ZERO;
      }
      Duration left = Duration.between(now, created.plus(delay));
      if (!left.isNegative() && !left.isZero() && !active.stream().allMatch(Pods::isReady)) {
        return left;
      }
      createdAt.remove(key);
      return Duration.ZERO;
    }
  }

  /** Drops what is remembered for {@code key}. */
  void forget(K key) {
    synchronized (lock) {
      createdAt.remove(key);
    }
  }
}
