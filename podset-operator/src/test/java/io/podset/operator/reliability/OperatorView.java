package io.podset.operator.reliability;

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
 * How current the running operator instances' view of PodSets was over time: a sampler records,
 * every few milliseconds, the least {@code lastObservedResourceVersion} of the PodSet caches of the
 * tracked instances (every PodSet change up to it is in their caches). {@link PodSetInvariants}
 * uses it to tell a create made from a stale view (allowed: the operator acted on the replicas it
 * was shown) from a duplicate (never allowed).
 *
 * <p>Thread-safe.
 */
final class OperatorView implements AutoCloseable {

  private static final Duration PERIOD = Duration.ofMillis(5);

  private final Object lock = new Object();
  // Guarded by lock: the instances whose view counts.
  private final List<SharedInformer<PodSet>> tracked = new ArrayList<>();
  // Guarded by lock: sample time (nanos) -> least observed version then, only at changes.
  private final TreeMap<Long, Long> samples = new TreeMap<>();
  private final Thread sampler;
  // Guarded by lock.
  private boolean closed;

  OperatorView() {
    samples.put(Long.MIN_VALUE, 0L);
    sampler = new Thread(this::run, "operator-view");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Counts {@code instance}'s PodSet cache from now on. */
  void track(OperatorInstance instance) {
    SharedInformer<PodSet> informer =
        instance.manager().informers().informerFor(PodSet.class, InformerOptions.defaults());
    synchronized (lock) {
      tracked.add(informer);
    }
  }

  /** Stops counting {@code instance} (it was killed: it acts no more). */
  void untrack(OperatorInstance instance) {
    SharedInformer<PodSet> informer =
        instance.manager().informers().informerFor(PodSet.class, InformerOptions.defaults());
    synchronized (lock) {
      tracked.remove(informer);
    }
  }

  private void run() {
    while (true) {
      long least = Long.MAX_VALUE;
      List<SharedInformer<PodSet>> now;
      synchronized (lock) {
        if (closed) {
          return;
        }
        now = List.copyOf(tracked);
      }
      for (SharedInformer<PodSet> informer : now) {
        String version = informer.lastObservedResourceVersion();
        least = Math.min(least, version == null ? 0 : Long.parseLong(version));
      }
      long value = least == Long.MAX_VALUE ? 0 : least;
      synchronized (lock) {
        if (!samples.lastEntry().getValue().equals(value)) {
          samples.put(System.nanoTime(), value);
        }
      }
      LockSupport.parkNanos(PERIOD.toNanos());
    }
  }

  /** The least PodSet version the tracked instances had observed at {@code nanos} (0: none yet). */
  long versionAt(long nanos) {
    synchronized (lock) {
      Map.Entry<Long, Long> entry = samples.floorEntry(nanos);
      return entry == null ? 0 : entry.getValue();
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
  }
}
