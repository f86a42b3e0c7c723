package io.podset.runtime.informer;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How far an informer's cache is behind the API server, from samples of the server's newest
 * resourceVersion.
 *
 * <p>Definition: a sample {@code (t, R)} is the server's newest resourceVersion {@code R} for the
 * resource, read by a quorum list that answered at {@code t}. The cache has caught up with it once
 * the version it has applied ({@link SharedInformer#lastObservedResourceVersion()}: every change up
 * to it is in the cache, bookmarks included) is at least {@code R}. The lag at {@code now} is
 * {@code now - t} of the oldest sample not yet caught up with, zero when all are: the age of the
 * oldest change the server had shown that the cache still lacks. It is a lower bound by at most the
 * sample period (a change made just after a sample is seen at the next one), and it is unknown
 * (null) before the first sample.
 *
 * <p>Versions are compared as numbers (etcd revisions, one counter for all resources): the server's
 * newest version moves with writes to any resource, so a cache whose own resource is quiet catches
 * up through a watch bookmark. Against a server that sends bookmarks rarely (kube-apiserver: about
 * once a minute per watch), a quiet resource's lag can read up to that interval although nothing is
 * missing. A non-numeric version is not sampled.
 *
 * <p>Thread-safe: sampled by the probe's thread, read by metrics and callers.
 */
final class CacheLag {

  /** Samples kept while not caught up with; beyond, the newest is replaced (the oldest matter). */
  static final int MAX_PENDING = 1024;

  private final Supplier<String> applied;

  private final Object lock = new Object();
  // Guarded by lock: samples (nanos, version) the cache has not caught up with, oldest first,
  // versions ascending; whether any sample was taken.
  private final ArrayDeque<long[]> pending = new ArrayDeque<>();
  private boolean sampled;

  /**
   * @param applied the version up to which the cache holds every change (null before any)
   */
  CacheLag(Supplier<String> applied) {
    this.applied = Objects.requireNonNull(applied, "applied");
  }

  /** The server's newest version was {@code resourceVersion} at {@code nanos}. */
  void sampled(@Nullable String resourceVersion, long nanos) {
    if (!ResourceVersions.isNumeric(resourceVersion)) {
      return;
    }
    long version = Long.parseLong(resourceVersion);
    long reached = appliedVersion();
    synchronized (lock) {
      sampled = true;
      dropReached(reached);
      if (version <= reached || (!pending.isEmpty() && pending.peekLast()[1] >= version)) {
        return;
      }
      if (pending.size() >= MAX_PENDING) {
        pending.pollLast();
      }
      pending.addLast(new long[] {nanos, version});
    }
  }

  /** The lag at {@code nowNanos}, or null before the first sample. */
  @Nullable Duration lag(long nowNanos) {
    long reached = appliedVersion();
    synchronized (lock) {
      if (!sampled) {
        return null;
      }
      dropReached(reached);
      long[] oldest = pending.peekFirst();
      return oldest == null ? Duration.ZERO : Duration.ofNanos(Math.max(0, nowNanos - oldest[0]));
    }
  }

  /** Holds the lock. */
  private void dropReached(long reached) {
    while (!pending.isEmpty() && pending.peekFirst()[1] <= reached) {
      pending.pollFirst();
    }
  }

  private long appliedVersion() {
    String version = applied.get();
    return ResourceVersions.isNumeric(version) ? Long.parseLong(version) : Long.MIN_VALUE;
  }
}
