package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.HandlerRegistration;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.runtime.reconcile.TerminalReconcileException;
import io.podset.runtime.time.Clock;
import io.podset.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The control loop behind {@link Controllers#builder}. */
final class DefaultController implements Controller {

  private static final Logger log = LoggerFactory.getLogger(DefaultController.class);
  private static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

  private final String name;
  private final List<Watch<?>> watches;
  private final Predicate<? super Event<? extends HasMetadata>> globalFilter;
  private final Reconciler reconciler;
  private final RateLimitingQueue<Request> queue;
  private final int workerCount;
  private final Duration cacheSyncTimeout;
  private final Clock clock;
  private final Runnable onClose;
  private final List<AutoCloseable> closeables;
  // Whether the queueing handlers are registered inline (ControllerBuilder#inlineEventHandlers).
  private final boolean inlineEventHandlers;
  private final ReconcileCauses causes = new ReconcileCauses();
  private final AtomicInteger active = new AtomicInteger();
  private final ControllerMetrics metrics;
  // Null for controllers without a read-your-writes barrier.
  private final @Nullable ReconcileGate gate;

  private final Object lock = new Object();
  // Guarded by lock: NEW -> STARTING -> RUNNING -> CLOSED; any state may move to CLOSED.
  private State state = State.NEW;
  // Guarded by lock; filled by start().
  private final List<HandlerRegistration> registrations = new ArrayList<>();
  private final List<Thread> workers = new ArrayList<>();

  private enum State {
    NEW,
    STARTING,
    RUNNING,
    CLOSED
  }

  DefaultController(ControllerBuilder.Spec spec) {
    this.name = spec.name();
    this.watches = List.copyOf(spec.watches());
    this.globalFilter = spec.globalFilter();
    this.reconciler = spec.reconciler();
    this.queue = spec.queue();
    this.workerCount = spec.workers();
    this.cacheSyncTimeout = spec.cacheSyncTimeout();
    this.clock = spec.clock();
    this.onClose = spec.onClose();
    this.closeables = spec.closeables();
    this.inlineEventHandlers = spec.inlineEventHandlers();
    this.gate = spec.gate();
    this.metrics = new ControllerMetrics(spec.meterRegistry(), name, active, workerCount);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start() {
    List<CompletableFuture<Void>> synced = new ArrayList<>();
    synchronized (lock) {
      if (state != State.NEW) {
        throw new IllegalStateException(
            "controller '" + name + "' cannot start: it is " + state.name().toLowerCase());
      }
      state = State.STARTING;
      for (Watch<?> watch : watches) {
        HandlerRegistration registration = register(watch);
        registrations.add(registration);
        synced.add(watch.informer().start());
        // An informer started earlier (a standby's warm cache) replays its state to this new
        // handler as adds: a worker must not run before they are in, or a reconciler would count
        // pods it finds there as events of its own writes (expectations).
        synced.add(registration.synced());
      }
    }
    // Not under the lock: close() must be able to abort a start that waits for caches.
    awaitSync(synced);
    synchronized (lock) {
      if (state != State.STARTING) {
        return; // closed while waiting
      }
      for (int i = 0; i < workerCount; i++) {
        Thread worker = new Thread(this::work, "controller-" + name + "-worker-" + i);
        worker.setDaemon(true);
        workers.add(worker);
        worker.start();
      }
      state = State.RUNNING;
      log.info("Started controller {} with {} worker(s)", name, workerCount);
    }
  }

  private <T extends HasMetadata> HandlerRegistration register(Watch<T> watch) {
    QueueingHandler<T> handler = new QueueingHandler<>(watch, globalFilter, queue, causes);
    return inlineEventHandlers
        ? watch.informer().addInlineEventHandler(handler)
        : watch.informer().addEventHandler(handler);
  }

  private void awaitSync(List<CompletableFuture<Void>> synced) {
    try {
      CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new))
          .get(cacheSyncTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      failStart(e instanceof ExecutionException ? e.getCause() : null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failStart(e);
    }
  }

  private void failStart(@Nullable Throwable cause) {
    StringBuilder message =
        new StringBuilder("controller '")
            .append(name)
            .append("': caches not synced within ")
            .append(cacheSyncTimeout);
    for (Watch<?> watch : watches) {
      SharedInformer<?> informer = watch.informer();
      if (!informer.hasSynced()) {
        message.append("; ").append(informer.type().getSimpleName()).append(" informer not synced");
        String lastError = informer.health().lastError();
        if (lastError != null) {
          message.append(" (last error: ").append(lastError).append(')');
        }
      }
    }
    synchronized (lock) {
      for (int i = 0; i < registrations.size() && i < watches.size(); i++) {
        if (watches.get(i).informer().hasSynced() && !registrations.get(i).hasSynced()) {
          message
              .append("; the handler of the ")
              .append(watches.get(i).informer().type().getSimpleName())
              .append(" informer has not been given its initial state");
        }
      }
    }
    if (cause != null) {
      message.append("; cause: ").append(cause);
    }
    synchronized (lock) {
      registrations.forEach(HandlerRegistration::close);
      registrations.clear();
      state = State.CLOSED;
    }
    queue.shutDown();
    release();
    throw new CacheSyncTimeoutException(message.toString());
  }

  private void work() {
    while (true) {
      Optional<Request> next;
      try {
        next = queue.get();
      } catch (InterruptedException e) {
        return;
      }
      if (next.isEmpty()) {
        return;
      }
      process(next.get());
    }
  }

  private void process(Request request) {
    CompletableFuture<Void> held = gate == null ? null : gate.heldBack(request);
    if (held != null) {
      // Not a reconcile: the request comes back once the gate opens; its causes stay noted.
      held.whenComplete((ignored, failure) -> queue.add(request));
      queue.done(request);
      return;
    }
    long started = clock.nanoTime();
    int retries = queue.numRequeues(request);
    active.incrementAndGet();
    MDC.put("controller", name);
    MDC.put("namespace", request.namespace() == null ? "" : request.namespace());
    MDC.put("name", request.name());
    MDC.put("reconcileId", UUID.randomUUID().toString());
    MDC.put("cause", causes.take(request));
    MDC.put("retries", Integer.toString(retries));
    String outcome = ControllerMetrics.ERROR;
    try {
      Result result = reconciler.reconcile(request);
      queue.forget(request);
      if (result != null && result.requeueAfter().isPresent()) {
        causes.note(request, "requeueAfter");
        queue.addAfter(request, result.requeueAfter().get());
        outcome = ControllerMetrics.REQUEUE_AFTER;
      } else {
        outcome = ControllerMetrics.SUCCESS;
      }
    } catch (TerminalReconcileException e) {
      metrics.recordTerminal();
      queue.forget(request);
      log.error("Reconcile of {} failed terminally, not retrying until the next event", request, e);
    } catch (Throwable e) {
      causes.note(request, "retry");
      queue.addRateLimited(request);
      if (ApiFailures.isTransient(e)) {
        // One line each: under a stream of 429s real errors must not drown in identical traces.
        log.warn(
            "Reconcile of {} failed, retry {} scheduled: {}",
            request,
            retries + 1,
            ApiFailures.describe(e));
        log.debug("Reconcile of {} failed with", request, e);
      } else {
        log.error("Reconcile of {} failed, retry {} scheduled", request, retries + 1, e);
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    } finally {
      metrics.record(outcome, clock.nanoTime() - started);
      active.decrementAndGet();
      queue.done(request);
      MDC.clear();
    }
  }

  @Override
  public boolean isRunning() {
    synchronized (lock) {
      return state == State.RUNNING;
    }
  }

  @Override
  public int activeWorkers() {
    return active.get();
  }

  @Override
  public boolean shutdown(Duration timeout) {
    List<Thread> running;
    synchronized (lock) {
      if (state == State.CLOSED) {
        return true;
      }
      state = State.CLOSED;
      registrations.forEach(HandlerRegistration::close);
      registrations.clear();
      running = List.copyOf(workers);
    }
    // Drain: workers finish the in-flight reconciles and the keys already queued; delayed requeues
    // (addAfter, rate-limited retries) are dropped, and resync on the next start.
    boolean drained = queue.shutDownWithDrain(timeout);
    if (!drained) {
      log.warn(
          "Controller {}: in-flight reconciles still running after {}; interrupting",
          name,
          timeout);
      queue.shutDown();
      running.forEach(Thread::interrupt);
    }
    running.forEach(worker -> join(worker, Duration.ofSeconds(5)));
    release();
    log.info("Stopped controller {}", name);
    return drained;
  }

  /** Closes what the controller owns, its meters, and tells its owner (a manager) it is gone. */
  private void release() {
    for (AutoCloseable resource : closeables) {
      try {
        resource.close();
      } catch (Exception e) {
        log.warn("Controller {}: closing {} failed", name, resource, e);
      }
    }
    metrics.close();
    onClose.run();
  }

  private static void join(Thread thread, Duration timeout) {
    try {
      thread.join(Math.max(1, timeout.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    shutdown(DEFAULT_SHUTDOWN_TIMEOUT);
  }

  @Override
  public String toString() {
    return "Controller[" + name + "]";
  }
}
