package io.podset.operator;

import io.podset.runtime.informer.ResourceVersions;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * The pods this operator patched for each PodSet, with the resourceVersion each patch returned,
 * until the cache shows every patch. Patches are not counted by {@link
 * io.podset.runtime.expectations.Expectations}, yet acting on a pod cached from before our own
 * patch would repeat it, or spend the {@code maxUnavailable} budget twice.
 *
 * <p>A pod's patch is seen when the cached pod has that resourceVersion or a newer one, or when the
 * pod is no longer cached. Entries older than the timeout are dropped (and counted), so a lost
 * event delays a PodSet by at most the timeout. Thread-safe.
 *
 * @param <K> the PodSet key type
 */
final class PatchedPods<K> {

  private final Clock clock;
  private final long timeoutNanos;
  private final Object lock = new Object();
  // Guarded by lock. Per key, pod name -> patch not yet seen; a key is absent when none is pending.
  private final Map<K, Map<String, Patch>> pending = new HashMap<>();
  // Guarded by lock. Patches dropped by the timeout instead of being seen.
  private long timeouts;

  PatchedPods(Clock clock, Duration timeout) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
  }

  /** A patch of pod {@code podName} for {@code key} returned {@code resourceVersion}. */
  void patched(K key, String podName, String resourceVersion) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(podName, "podName");
    synchronized (lock) {
      pending
          .computeIfAbsent(key, k -> new HashMap<>())
          .put(podName, new Patch(resourceVersion, clock.nanoTime()));
    }
  }

  /**
   * Whether the cache shows every patch of {@code key}: {@code cachedVersions} maps the name of
   * each cached pod of the PodSet to its resourceVersion. Seen and timed-out patches are dropped.
   */
  boolean seen(K key, Map<String, String> cachedVersions) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(cachedVersions, "cachedVersions");
    synchronized (lock) {
      Map<String, Patch> patches = pending.get(key);
      if (patches == null) {
        return true;
      }
      long now = clock.nanoTime();
      for (Iterator<Map.Entry<String, Patch>> it = patches.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Patch> entry = it.next();
        String cached = cachedVersions.get(entry.getKey());
        Patch patch = entry.getValue();
        if (cached == null || ResourceVersions.atLeast(cached, patch.version)) {
          it.remove();
        } else if (now - patch.sinceNanos >= timeoutNanos) {
          it.remove();
          timeouts++;
        }
      }
      if (patches.isEmpty()) {
        pending.remove(key);
        return true;
      }
      return false;
    }
  }

  /** Drops everything pending for {@code key}. */
  void forget(K key) {
    synchronized (lock) {
      pending.remove(key);
    }
  }

  /** How many patches were dropped by the timeout: a sign of lost events. */
  long timeouts() {
    synchronized (lock) {
      return timeouts;
    }
  }

  private record Patch(String version, long sinceNanos) {}
}
