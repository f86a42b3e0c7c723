package io.podset.runtime.controller;

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
 * Whether a controller met the API server's faults lately, and which requests' last pass failed:
 * while either holds, objects owned by a primary are created only after confirming the primary with
 * a GET, however current the caches look ({@link #cachesVouchFor}). Typed controllers keep one and
 * their {@link io.podset.runtime.reconcile.Context} asks it before a create; a reconciler on the
 * request API (the PodSet operator) keeps its own and reports its passes.
 *
 * <p>Why: what the primary's cache shows of itself ({@link CacheVersion#following}) misses a
 * deletion younger than its tolerance, and a watch held back for less than its silence while the
 * controller wrote nothing. Under a server in trouble that is where the chaos soak's last pods for
 * deleted PodSets came from (create passes 16–650 ms after the deletion). Faults come in runs: a
 * server that refused or broke a request of ours seconds ago may be holding back or delaying watch
 * events now. So the creates are confirmed for {@code window} after any of:
 *
 * <ul>
 *   <li>a pass of any request failed with a fault a retry may cure (409, 429, 5xx, no answer:
 *       {@link ApiFailures#isTransient}), its writes or its confirming GET;
 *   <li>a cache's list or watch met a fault, or it relisted ({@link CacheVersion#faultedWithin});
 * </ul>
 *
 * <p>and for a request whose last pass failed, however long ago: its retry comes after the
 * controller's backoff, which may be longer than the window. On top of those remembered faults,
 * {@link #cachesVouchFor} asks the primary's cache at the moment whether it follows, its silence
 * included.
 *
 * <p>What a cache shows of itself at the moment ({@link CacheVersion#following}: our writes shown
 * late, a watch being re-opened) is not remembered: on a busy, healthy server our writes are echoed
 * late and watches end early and re-open, and remembering that for the window made a busy cluster
 * confirm every create (175–243 GETs per phase at 1000 PodSets, with no error answered). Only a
 * cache's faults and our failed requests are remembered.
 *
 * <p>Without faults nothing here asks for a read: the common path still creates from the caches.
 * Thread-safe.
 */
public final class RecentFaults {

  /**
   * How long a fault seen keeps the creates confirmed, for typed controllers: the chaos soak's
   * campaign starts a new fault every ~0.4 s and a hold or delay of watch events every ~9 s; a
   * server that failed a request of ours this recently may be holding events back now.
   */
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

  /**
   * How late a cache may show our own writes and still follow, for typed controllers: under normal
   * operation within milliseconds; under delayed watch events (0.2 to 1 s) not, and a deletion may
   * be missing.
   */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMillis(250);

  /**
   * How long the primary's cache may have applied nothing (no change, no bookmark) and still vouch
   * for a primary, for typed controllers: a watch the server holds back says nothing. Longer than
   * the tolerance, since a quiet resource is quiet; our own writes catch a hold sooner.
   */
  public static final Duration DEFAULT_SILENCE = Duration.ofSeconds(2);

  private final Clock clock;
  private final long windowNanos;
  private final Duration window;
  private final Duration tolerance;
  private final Duration silence;
  private final CacheVersion primaries;
  private final List<CacheVersion> caches;
  private final Set<Request> retrying = ConcurrentHashMap.newKeySet();

  private final Object lock = new Object();
  // Guarded by lock: when a fault was last seen, on the clock's nanoTime (valid once seen).
  private boolean seen;
  private long seenNanos;

  private RecentFaults(
      Clock clock,
      Duration window,
      Duration tolerance,
      Duration silence,
      CacheVersion primaries,
      List<? extends CacheVersion> caches) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.window = Objects.requireNonNull(window, "window");
    this.windowNanos = window.toNanos();
    this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
    this.silence = Objects.requireNonNull(silence, "silence");
    this.primaries = Objects.requireNonNull(primaries, "primaries");
    this.caches = List.copyOf(caches);
  }

  /**
   * Faults remembered for {@code window}.
   *
   * @param window how long a fault seen keeps the creates confirmed
   * @param tolerance how late a cache may show our writes and still follow
   * @param silence how long the primaries' cache may have applied nothing and still vouch
   * @param primaries the cache of the primaries, asked at each {@link #cachesVouchFor}
   * @param caches the caches the creates are planned from (the primaries' among them)
   * @throws NullPointerException if an argument is null
   */
  public static RecentFaults create(
      Clock clock,
      Duration window,
      Duration tolerance,
      Duration silence,
      CacheVersion primaries,
      List<? extends CacheVersion> caches) {
    return new RecentFaults(clock, window, tolerance, silence, primaries, caches);
  }

  /** A pass of {@code request} failed with {@code failure}: its next pass is a retry. */
  public void failed(Request request, Throwable failure) {
    retrying.add(request);
    if (ApiFailures.isTransient(failure)) {
      seenNow();
    }
  }

  /** A pass of {@code request} carried out its writes: its next pass is no retry. */
  public void passed(Request request) {
    retrying.remove(request);
  }

  /**
   * Whether objects for {@code request} must be created only after confirming its primary with the
   * server: its last pass failed, or a fault was seen within the window (see the class
   * documentation).
   */
  public boolean confirmCreates(Request request) {
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

  /**
   * Whether the caches alone may be trusted to show that the primary of {@code request} still
   * exists before objects it owns are created: the primaries' cache follows its watch right now
   * (silence included) and no fault is about ({@link #confirmCreates}).
   */
  public boolean cachesVouchFor(Request request) {
    return primaries.following(tolerance, silence) && !confirmCreates(request);
  }

  /** Forgets {@code request} (it is gone). */
  public void forget(Request request) {
    retrying.remove(request);
  }

  private void seenNow() {
    synchronized (lock) {
      seen = true;
      seenNanos = clock.nanoTime();
    }
  }
}
