package io.podset.operator;

import io.podset.runtime.client.ApiFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which failed passes show their failure in the status at once. A pod write refused with a conflict
 * (409), throttling (429), a server error (5xx) or a broken connection is usually cured by the
 * controller's retry a moment later; writing a {@code ReplicaFailure} condition for it, and another
 * status write to remove it after the retry, cost two status writes per fault (each of them meeting
 * the same faults: in the chaos soak half the status writes failed, and a failed one is retried
 * with the whole reconcile). Such a failure is therefore shown only once the PodSet has failed
 * without a clean pass for {@code grace}; any other failure (a quota, an invalid pod) is shown at
 * once. The status of a held-back pass is written by a later pass, which the controller's retry
 * guarantees. It keeps one entry per PodSet that is failing without a clean pass, until a clean
 * pass or the PodSet's deletion {@linkplain #forget forgets} it, so its size is bounded by the
 * PodSets that exist. Thread-safe.
 *
 * @param <K> the PodSet key type
 */
final class PassingFailures<K> {

  private final Duration grace;
  private final Object lock = new Object();
  // Guarded by lock. The first failed pass since the last clean one, per PodSet.
  private final Map<K, Instant> failingSince = new HashMap<>();

  PassingFailures(Duration grace) {
    this.grace = Objects.requireNonNull(grace, "grace");
  }

  /**
   * A pass of {@code key} failed with {@code failure} at {@code now}: whether its status (with the
   * failure) should be written now.
   */
  boolean showNow(K key, ReplicaFailure failure, Instant now) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(now, "now");
    Instant since;
    synchronized (lock) {
      since = failingSince.computeIfAbsent(key, k -> now);
    }
    return !ApiFailures.isTransient(Objects.requireNonNull(failure, "failure").cause())
        || !now.isBefore(since.plus(grace));
  }

  /** A pass of {@code key} met no failure (or the PodSet is gone): the next failure starts over. */
  void forget(K key) {
    synchronized (lock) {
      failingSince.remove(key);
    }
  }
}
