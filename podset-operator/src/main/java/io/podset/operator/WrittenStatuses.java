package io.podset.operator;

import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.runtime.informer.ResourceVersions;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The last status this operator wrote for each PodSet, until the cache shows it. A reconcile that
 * reads a PodSet cached from before our last status write compares its new status with what we
 * wrote, not with the stale cached one, so it neither writes the same status twice nor needs to
 * wait for the cache. Thread-safe.
 *
 * @param <K> the PodSet key type
 */
final class WrittenStatuses<K> {

  private final Object lock = new Object();
  // Guarded by lock. A key is absent when the cache shows our last write (or we wrote none).
  private final Map<K, Written> written = new HashMap<>();

  /** We wrote {@code status} for the PodSet {@code uid}; the server returned {@code version}. */
  void wrote(K key, String uid, PodSetStatus status, String version) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(status, "status");
    synchronized (lock) {
      written.put(key, new Written(uid, status, version));
    }
  }

  /**
   * The status {@code cached} has on the server as far as we know: our last written status when the
   * cached object predates that write, else the cached status ({@link PodSetStatus#empty()} when
   * none).
   */
  PodSetStatus current(K key, PodSet cached) {
    Objects.requireNonNull(key, "key");
    PodSetStatus fromCache = cached.getStatus() == null ? PodSetStatus.empty() : cached.getStatus();
    synchronized (lock) {
      Written last = written.get(key);
      if (last == null) {
        return fromCache;
      }
      boolean sameObject = Objects.equals(last.uid, cached.getMetadata().getUid());
      if (!sameObject
          || ResourceVersions.atLeast(cached.getMetadata().getResourceVersion(), last.version)) {
        written.remove(key);
        return fromCache;
      }
      return last.status;
    }
  }

  /** Drops what is remembered for {@code key}. */
  void forget(K key) {
    synchronized (lock) {
      written.remove(key);
    }
  }

  private record Written(String uid, PodSetStatus status, String version) {}
}
