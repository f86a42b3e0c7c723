package io.podset.runtime.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.informer.ResourceVersions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-your-writes barrier: after a reconcile wrote, the next reconcile of the same request is
 * held back until every cache involved has observed the resourceVersion its write returned, or
 * until the timeout, after which it runs anyway (counted in {@code
 * controller_runtime_read_your_writes_timeouts_total} and logged once per expiry).
 *
 * <p>A watch delivers one resource's changes in resourceVersion order, so a cache that has observed
 * version r shows every write up to r: the object as written, something newer, or its deletion.
 * Writes by others are not waited for; they trigger reconciles as usual.
 *
 * <p>Typed controllers ({@code Manager.controllerFor}) have one and record every write made through
 * their {@code Context}. A {@link io.podset.runtime.reconcile.Reconciler} on the request API gets
 * the same guarantee by recording its writes here and giving the barrier to its controller:
 *
 * <pre>{@code
 * ReadYourWrites writes = ReadYourWrites.create(clock, Duration.ofSeconds(5));
 * // in the reconciler, after each write:
 * writes.wrote(request, podInformer, created.getMetadata().getResourceVersion());
 * // wiring:
 * builder.reconciler(reconciler).readYourWrites(writes).build();
 * }</pre>
 *
 * <p>The controller consults the barrier before each reconcile and re-queues a held-back request
 * the moment its writes are observed. A reconciler may also ask {@link #observed} itself, which
 * keeps it safe where no controller holds it back (a test calling it directly).
 *
 * <p>Thread-safe: writes may be recorded from several threads during one reconcile.
 */
public final class ReadYourWrites {

  /** A write whose answer a cache must observe. */
  record Write(CacheVersion cache, String resourceVersion) {}

  private static final Logger log = LoggerFactory.getLogger(ReadYourWrites.class);

  private final Clock clock;
  private final Duration timeout;
  private final Object lock = new Object();
  // Guarded by lock: the barrier of each request whose writes are not all observed yet.
  private final Map<Request, Barrier> barriers = new HashMap<>();
  // Guarded by lock: set once, by the controller the barrier serves.
  private @Nullable String controller;
  private @Nullable Counter timeouts;

  private ReadYourWrites(Clock clock, Duration timeout) {
    this.clock = clock;
    this.timeout = timeout;
  }

  /**
   * A barrier that lets a request through after {@code timeout} even when its writes were not
   * observed (a lost event must not stall it for ever).
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public static ReadYourWrites create(Clock clock, Duration timeout) {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("readYourWrites timeout must be positive, got " + timeout);
    }
    return new ReadYourWrites(clock, timeout);
  }

  /**
   * Records that the reconcile of {@code request} now running wrote an object of the resource
   * {@code cache} follows, and the server answered with {@code resourceVersion} (a create, update,
   * patch, or the answer to a delete). The next reconcile of {@code request} waits until {@code
   * cache} has observed it. A version that is not numeric, or that the cache has already observed,
   * holds nothing back.
   *
   * @throws NullPointerException if {@code request} or {@code cache} is null
   */
  public void wrote(Request request, CacheVersion cache, String resourceVersion) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(cache, "cache");
    if (!ResourceVersions.isNumeric(resourceVersion)
        || ResourceVersions.atLeast(cache.lastObservedResourceVersion(), resourceVersion)) {
      return;
    }
    CompletableFuture<Void> observed = cache.awaitObserved(resourceVersion);
    Barrier barrier;
    boolean created = false;
    synchronized (lock) {
      barrier = barriers.get(request);
      if (barrier == null) {
        barrier = new Barrier();
        barriers.put(request, barrier);
        created = true;
      }
      barrier.pending.add(new Pending(new Write(cache, resourceVersion), observed));
    }
    if (created) {
      Barrier expiring = barrier;
      barrier.timer = clock.schedule(timeout, () -> expire(request, expiring));
      if (barrier.released.isDone()) {
        barrier.timer.cancel(); // released before its timer was set
      }
    }
    Barrier waiting = barrier;
    observed.whenComplete((ignored, failure) -> settle(request, waiting, false));
  }

  /** Records several writes of one reconcile, as {@link #wrote(Request, CacheVersion, String)}. */
  void wrote(Request request, List<Write> writes) {
    for (Write write : writes) {
      wrote(request, write.cache(), write.resourceVersion());
    }
  }

  /**
   * True when the caches have observed every write recorded for {@code request} (or the timeout let
   * it through): a reconcile may then trust them to show its own last writes.
   *
   * @throws NullPointerException if {@code request} is null
   */
  public boolean observed(Request request) {
    Objects.requireNonNull(request, "request");
    Barrier barrier;
    synchronized (lock) {
      barrier = barriers.get(request);
    }
    return barrier == null || settle(request, barrier, true);
  }

  /** Forgets the writes of {@code request}, whose object is gone; releases it if held back. */
  public void forget(Request request) {
    Objects.requireNonNull(request, "request");
    Barrier barrier;
    synchronized (lock) {
      barrier = barriers.remove(request);
    }
    if (barrier != null) {
      barrier.release();
    }
  }

  /** The gate a controller consults before each reconcile. */
  ReconcileGate gate() {
    return request -> {
      synchronized (lock) {
        Barrier barrier = barriers.get(request);
        return barrier == null ? null : barrier.released;
      }
    };
  }

  /**
   * Ties the barrier to the controller it serves, for its log lines and its timeout metric.
   *
   * @throws IllegalStateException if it already serves a controller
   */
  void bind(String controller, MeterRegistry registry) {
    synchronized (lock) {
      if (this.controller != null) {
        throw new IllegalStateException(
            "this ReadYourWrites already serves controller '"
                + this.controller
                + "'; give each controller its own");
      }
      this.controller = controller;
      this.timeouts =
          Counter.builder("controller_runtime_read_your_writes_timeouts")
              .description(
                  "Reconciles that started before the caches showed the previous reconcile's"
                      + " writes")
              .tag("controller", controller)
              .register(registry);
    }
  }

  /**
   * Drops the observed writes of {@code barrier}; releases it when none is left. With {@code
   * checkCaches}, a write whose cache has reached its version counts as observed even before its
   * future completed.
   *
   * @return whether the barrier was released
   */
  private boolean settle(Request request, Barrier barrier, boolean checkCaches) {
    synchronized (lock) {
      barrier.pending.removeIf(
          pending ->
              pending.observed.isDone()
                  || checkCaches
                      && ResourceVersions.atLeast(
                          pending.write.cache().lastObservedResourceVersion(),
                          pending.write.resourceVersion()));
      if (!barrier.pending.isEmpty()) {
        return false;
      }
      barriers.remove(request, barrier);
    }
    barrier.release();
    return true;
  }

  private void expire(Request request, Barrier barrier) {
    String pending;
    String name;
    Counter counter;
    synchronized (lock) {
      if (!barriers.remove(request, barrier)) {
        return;
      }
      pending = barrier.describePending();
      name = controller;
      counter = timeouts;
    }
    if (counter != null) {
      counter.increment();
    }
    log.warn(
        "Controller {}: the caches did not show the writes of the last reconcile of {} within {}"
            + " ({}); reconciling anyway. Does each informer's namespace and selectors match the"
            + " objects written?",
        name,
        request,
        timeout,
        pending);
    barrier.release();
  }

  /** A write and the future of its observation. */
  private record Pending(Write write, CompletableFuture<Void> observed) {}

  /** The writes of one request not yet observed. */
  private final class Barrier {
    // Guarded by lock.
    final List<Pending> pending = new ArrayList<>();
    final CompletableFuture<Void> released = new CompletableFuture<>();
    volatile Clock.@Nullable Cancellable timer;

    /** Completes the release, stops waiting for what is left, and stops the timer. */
    void release() {
      released.complete(null);
      List<Pending> left;
      synchronized (lock) {
        left = List.copyOf(pending);
        pending.clear();
      }
      left.forEach(p -> p.observed.cancel(false));
      Clock.Cancellable t = timer;
      if (t != null) {
        t.cancel();
      }
    }

    String describePending() {
      return pending.stream()
          .filter(p -> !p.observed.isDone())
          .map(
              p ->
                  describe(p.write.cache())
                      + " at "
                      + p.write.cache().lastObservedResourceVersion()
                      + ", waiting for "
                      + p.write.resourceVersion())
          .collect(Collectors.joining("; "));
    }

    private String describe(CacheVersion cache) {
      return cache instanceof SharedInformer<?> informer
          ? informer.type().getSimpleName() + " informer"
          : cache.toString();
    }
  }
}
