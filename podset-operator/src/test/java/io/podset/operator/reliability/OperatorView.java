package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * How current the running operator instances' caches were over time: a sampler records, every few
 * milliseconds, the least {@code lastObservedResourceVersion} of the PodSet caches and of the pod
 * caches of the tracked instances (every change up to that version is in all their caches; it is
 * monotonic while the set of tracked instances stays the same). {@link PodSetInvariants} uses the
 * PodSet side to tell a create made from a stale view (allowed: the operator acted on the replicas
 * it was shown) from a duplicate (never allowed), and both sides to explain a violation.
 *
 * <p>Thread-safe.
 */
final class OperatorView implements AutoCloseable {

  private static final Duration PERIOD = Duration.ofMillis(5);

  /** The two caches sampled. */
  enum Cache {
    PODSETS,
    PODS
  }

  private record Tracked(SharedInformer<PodSet> podSets, SharedInformer<Pod> pods) {}

  private final Object lock = new Object();
  // Guarded by lock: the instances whose view counts.
  private final List<Tracked> tracked = new ArrayList<>();
  // Guarded by lock: per cache, sample time (nanos) -> least observed version then, only at
  // changes.
  private final List<TreeMap<Long, Long>> samples = List.of(new TreeMap<>(), new TreeMap<>());
  private final Thread sampler;
  // Guarded by lock.
  private boolean closed;

  OperatorView() {
    for (TreeMap<Long, Long> cache : samples) {
      cache.put(Long.MIN_VALUE, 0L);
    }
    sampler = new Thread(this::run, "operator-view");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Counts {@code instance}'s caches from now on. */
  void track(OperatorInstance instance) {
    Tracked caches = caches(instance);
    synchronized (lock) {
      tracked.add(caches);
    }
  }

  /** Stops counting {@code instance} (it was killed: it acts no more). */
  void untrack(OperatorInstance instance) {
    Tracked caches = caches(instance);
    synchronized (lock) {
      tracked.remove(caches);
    }
  }

  private static Tracked caches(OperatorInstance instance) {
    var informers = instance.manager().informers();
    return new Tracked(
        informers.informerFor(PodSet.class, InformerOptions.defaults()),
        informers.informerFor(Pod.class, InformerOptions.defaults()));
  }

  private void run() {
    while (true) {
      long leastPodSets = Long.MAX_VALUE;
      long leastPods = Long.MAX_VALUE;
      List<Tracked> now;
      synchronized (lock) {
        if (closed) {
          return;
        }
        now = List.copyOf(tracked);
      }
      for (Tracked caches : now) {
        leastPodSets = Math.min(leastPodSets, version(caches.podSets()));
        leastPods = Math.min(leastPods, version(caches.pods()));
      }
      long time = System.nanoTime();
      synchronized (lock) {
        record(Cache.PODSETS, time, leastPodSets);
        record(Cache.PODS, time, leastPods);
      }
      LockSupport.parkNanos(PERIOD.toNanos());
    }
  }

  private static long version(SharedInformer<?> informer) {
    String version = informer.lastObservedResourceVersion();
    return version == null ? 0 : Long.parseLong(version);
  }

  /** Holds the lock. */
  private void record(Cache cache, long time, long least) {
    long value = least == Long.MAX_VALUE ? 0 : least;
    TreeMap<Long, Long> series = samples.get(cache.ordinal());
    if (!series.lastEntry().getValue().equals(value)) {
      series.put(time, value);
    }
  }

  /** The least PodSet version the tracked instances had observed at {@code nanos} (0: none yet). */
  long versionAt(long nanos) {
    return versionAt(Cache.PODSETS, nanos);
  }

  /** The least version of {@code cache} the tracked instances had observed at {@code nanos}. */
  long versionAt(Cache cache, long nanos) {
    synchronized (lock) {
      Map.Entry<Long, Long> entry = samples.get(cache.ordinal()).floorEntry(nanos);
      return entry == null ? 0 : entry.getValue();
    }
  }

  /**
   * For each of {@code versions} (ascending), when the tracked instances' {@code cache} first held
   * every change up to it (sampled, so up to a few milliseconds late), or {@link Long#MAX_VALUE} if
   * it has not yet.
   */
  long[] reached(Cache cache, long[] versions) {
    long[] times = new long[versions.length];
    java.util.Arrays.fill(times, Long.MAX_VALUE);
    synchronized (lock) {
      // The first time a sample reaches v is the first time the running maximum does, and that
      // one only grows: one pass over both.
      long max = Long.MIN_VALUE;
      int next = 0;
      for (Map.Entry<Long, Long> entry : samples.get(cache.ordinal()).entrySet()) {
        max = Math.max(max, entry.getValue());
        while (next < versions.length && versions[next] <= max) {
          times[next++] = entry.getKey();
        }
      }
    }
    return times;
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
  }
}
