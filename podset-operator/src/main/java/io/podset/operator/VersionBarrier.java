package io.podset.operator;

import io.podset.runtime.expectations.ResourceVersions;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Remembers, per key, the newest resourceVersion a write of ours returned, until a cache shows a
 * version at least as new. Used for writes that {@link io.podset.runtime.expectations.Expectations}
 * does not track (pod patches, PodSet status): acting on a cache older than our own last write
 * would undo or repeat it.
 *
 * <p>A barrier that the cache does not pass within the timeout is dropped (and counted), so a lost
 * event delays a key by at most the timeout. Thread-safe.
 *
 * @param <K> the key type
 */
final class VersionBarrier<K> {

  private final Clock clock;
  private final long timeoutNanos;
  private final Object lock = new Object();
  // Guarded by lock. A key is absent when no write is waiting to be seen.
  private final Map<K, Entry> entries = new HashMap<>();
  // Guarded by lock. Barriers dropped by the timeout instead of being passed.
  private long timeouts;

  VersionBarrier(Clock clock, Duration timeout) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
  }

  /** A write for {@code key} returned {@code resourceVersion}; null or non-numeric is ignored. */
  void wrote(K key, String resourceVersion) {
    Objects.requireNonNull(key, "key");
    if (!ResourceVersions.atLeast(resourceVersion, "0")) {
      return;
    }
    synchronized (lock) {
      Entry current = entries.get(key);
      if (current == null || !ResourceVersions.atLeast(current.version, resourceVersion)) {
        entries.put(key, new Entry(resourceVersion, clock.nanoTime()));
      }
    }
  }

  /**
   * Whether a cache that has observed {@code observedVersion} shows every write recorded for {@code
   * key}; a passed or timed-out barrier is dropped.
   */
  boolean passed(K key, String observedVersion) {
    Objects.requireNonNull(key, "key");
    synchronized (lock) {
      Entry entry = entries.get(key);
      if (entry == null) {
        return true;
      }
      if (ResourceVersions.atLeast(observedVersion, entry.version)) {
        entries.remove(key);
        return true;
      }
      if (clock.nanoTime() - entry.sinceNanos >= timeoutNanos) {
        entries.remove(key);
        timeouts++;
        return true;
      }
      return false;
    }
  }

  /** Drops the barrier of {@code key}. */
  void forget(K key) {
    synchronized (lock) {
      entries.remove(key);
    }
  }

  /** How many barriers were dropped by the timeout: a sign of lost events. */
  long timeouts() {
    synchronized (lock) {
      return timeouts;
    }
  }

  private record Entry(String version, long sinceNanos) {}
}
