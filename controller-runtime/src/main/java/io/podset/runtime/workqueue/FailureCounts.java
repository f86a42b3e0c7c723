package io.podset.runtime.workqueue;

import java.util.HashMap;
import java.util.Objects;

/** How often each key failed since it was last forgotten: the state of the per-key limiters. */
final class FailureCounts<K> {

  // Guarded by itself; absent means 0.
  private final HashMap<K, Integer> failures = new HashMap<>();

  /** Records one more failure of {@code key}; returns its count, this one included (saturating). */
  int record(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (failures) {
      return failures.merge(key, 1, (count, one) -> count == Integer.MAX_VALUE ? count : count + 1);
    }
  }

  void forget(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (failures) {
      failures.remove(key);
    }
  }

  int count(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (failures) {
      return failures.getOrDefault(key, 0);
    }
  }
}
