package io.podset.runtime.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.informer.ResourceVersions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-your-writes barrier: after a reconcile wrote, the next reconcile of the same request is
 * held back until every informer involved has observed the resourceVersion its write returned, or
 * until the timeout, after which it runs anyway (counted in {@code
 * controller_runtime_read_your_writes_timeouts_total} and logged).
 *
 * <p>A watch delivers one resource's changes in resourceVersion order, so an informer that has
 * observed version r shows every write up to r: the cache then reflects the write, or something
 * newer. Thread-safe.
 */
final class ReadYourWrites implements ReconcileGate {

  /** A write whose answer an informer must observe. */
  record Write(SharedInformer<?> informer, String resourceVersion) {}

  private static final Logger log = LoggerFactory.getLogger(ReadYourWrites.class);

  private final String controller;
  private final Clock clock;
  private final Duration timeout;
  private final Counter timeouts;
  private final Object lock = new Object();
  // Guarded by lock: the barrier of each request whose last writes are not all observed yet.
  private final Map<Request, Barrier> barriers = new HashMap<>();

  ReadYourWrites(String controller, Clock clock, Duration timeout, MeterRegistry registry) {
    this.controller = controller;
    this.clock = clock;
    this.timeout = timeout;
    this.timeouts =
        Counter.builder("controller_runtime_read_your_writes_timeouts")
            .description(
                "Reconciles that started before the caches showed the previous reconcile's writes")
            .tag("controller", controller)
            .register(registry);
  }

  /** Records the writes a reconcile of {@code request} made; the next one waits for them. */
  void wrote(Request request, List<Write> writes) {
    List<Write> ordered = new ArrayList<>();
    for (Write write : writes) {
      if (ResourceVersions.isNumeric(write.resourceVersion())) {
        ordered.add(write);
      }
    }
    if (ordered.isEmpty()) {
      return;
    }
    List<CompletableFuture<Void>> observed = new ArrayList<>();
    for (Write write : ordered) {
      observed.add(write.informer().awaitObserved(write.resourceVersion()));
    }
    Barrier barrier = new Barrier(ordered, observed);
    synchronized (lock) {
      Barrier previous = barriers.put(request, barrier);
      if (previous != null) {
        previous.cancel(); // superseded: the new writes come after the old ones
      }
    }
    Clock.Cancellable timer = clock.schedule(timeout, () -> expire(request, barrier));
    CompletableFuture.allOf(observed.toArray(CompletableFuture[]::new))
        .whenComplete(
            (ignored, failure) -> {
              timer.cancel();
              release(request, barrier);
            });
  }

  @Override
  public CompletableFuture<Void> heldBack(Request request) {
    synchronized (lock) {
      Barrier barrier = barriers.get(request);
      return barrier == null ? null : barrier.released;
    }
  }

  /** Drops the barrier of a request whose object is gone. */
  void forget(Request request) {
    Barrier barrier;
    synchronized (lock) {
      barrier = barriers.remove(request);
    }
    if (barrier != null) {
      barrier.cancel();
      barrier.released.complete(null);
    }
  }

  private void release(Request request, Barrier barrier) {
    synchronized (lock) {
      barriers.remove(request, barrier);
    }
    barrier.released.complete(null);
  }

  private void expire(Request request, Barrier barrier) {
    boolean expired;
    synchronized (lock) {
      expired = barriers.remove(request, barrier);
    }
    if (!expired) {
      return;
    }
    timeouts.increment();
    log.warn(
        "Controller {}: the caches did not show the writes of the last reconcile of {} within {}"
            + " ({}); reconciling anyway. Does each informer's namespace and selectors match the"
            + " objects written?",
        controller,
        request,
        timeout,
        barrier.pending());
    barrier.cancel();
    barrier.released.complete(null);
  }

  /** The writes of one reconcile and the futures of their observation. */
  private static final class Barrier {
    final List<Write> writes;
    final List<CompletableFuture<Void>> observed;
    final CompletableFuture<Void> released = new CompletableFuture<>();

    Barrier(List<Write> writes, List<CompletableFuture<Void>> observed) {
      this.writes = writes;
      this.observed = observed;
    }

    void cancel() {
      observed.forEach(future -> future.cancel(false));
    }

    String pending() {
      List<String> pending = new ArrayList<>();
      for (int i = 0; i < writes.size(); i++) {
        if (!observed.get(i).isDone()) {
          Write write = writes.get(i);
          pending.add(
              write.informer().type().getSimpleName()
                  + " informer at "
                  + write.informer().lastObservedResourceVersion()
                  + ", waiting for "
                  + write.resourceVersion());
        }
      }
      return pending.stream().collect(Collectors.joining("; "));
    }
  }
}
