package io.podset.operator;

import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the operator met the API server's faults lately, and which PodSets' last pass failed:
 * while either holds, {@link PodSetReconciler} confirms a PodSet with a GET before creating pods
 * for it, however current its caches look.
 *
 * <p>Why: what the PodSet cache shows of itself ({@link CacheVersion#following}) misses a deletion
 * younger than its tolerance, and a watch held back for less than its silence while the operator
 * wrote nothing. Under a server in trouble that is where the chaos soak's last pods for deleted
 * PodSets came from (create passes 16–650 ms after the deletion). Faults come in runs: a server
 * that refused or broke a request of ours seconds ago may be holding back or delaying watch events
 * now. So the creates are confirmed for {@code window} after any of:
 *
 * <ul>
 *   <li>a pass of any PodSet failed with a fault a retry may cure (409, 429, 5xx, no answer: {@link
 *       ApiFailures#isTransient}), its writes or its confirming GET;
 *   <li>a cache's list or watch met a fault, or it relisted ({@link CacheVersion#faultedWithin});
 * </ul>
 *
 * <p>and for a PodSet whose last pass failed, however long ago: its retry comes after the
 * controller's backoff, which may be longer than the window.
 *
 * <p>What a cache shows of itself right now ({@link CacheVersion#following}: our writes shown late,
 * a watch being re-opened) is not remembered here: on a busy, healthy server our status writes are
 * echoed late and watches end early and re-open, and remembering that for the window made a busy
 * cluster confirm every create (175–243 GETs per phase at 1000 PodSets, with no error answered).
 * The reconciler asks the PodSet cache at each pass instead; only a cache's faults and our failed
 * requests are remembered.
 *
 * <p>Without faults nothing here asks for a read: the common path still creates from the caches.
 * Thread-safe.
 */
final class RecentFaults {

  private final Clock clock;
  private final long windowNanos;
  private final Duration window;
  private final List<CacheVersion> caches;
  private final Set<Request> retrying = ConcurrentHashMap.newKeySet();

  private final Object lock = new Object();
  // Guarded by lock: when a fault was last seen, on the clock's nanoTime (valid once seen).
  private boolean seen;
  private long seenNanos;

  /**
   * @param window how long a fault seen keeps the creates confirmed
   * @param caches the caches the creates are planned from
   */
  RecentFaults(Clock clock, Duration window, List<CacheVersion> caches) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.window = Objects.requireNonNull(window, "window");
    this.windowNanos = window.toNanos();
    this.caches = List.copyOf(caches);
  }

  /** A pass of {@code request} failed with {@code failure}: its next pass is a retry. */
  void failed(Request request, Throwable failure) {
    retrying.add(request);
    if (ApiFailures.isTransient(failure)) {
      seenNow();
    }
  }

  /** A pass of {@code request} carried out its writes: its next pass is no retry. */
  void passed(Request request) {
    retrying.remove(request);
  }

  /**
   * Whether pods for {@code request} must be created only after confirming it with the server: its
   * last pass failed, or a fault was seen within the window (see the class documentation).
   */
  boolean confirmCreates(Request request) {
    if (retrying.contains(request)) {
      return true;
    }
    for (CacheVersion cache : caches) {
      if (cache.faultedWithin(window)) {
        return true;
      }
    }
    synchronized (lock) {
      return seen && clock.nanoTime() - seenNanos <= windowNanos;
    }
  }

  /** Forgets {@code request} (it is gone). */
  void forget(Request request) {
    retrying.remove(request);
  }

  private void seenNow() {
    synchronized (lock) {
      seen = true;
      seenNanos = clock.nanoTime();
    }
  }
}
