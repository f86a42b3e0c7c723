package io.podset.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.ControllerBuilder;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link Reconciler} in a real controller (the runtime's informers and work queue) against a
 * {@link FakeApiServer} and tells what happened until the controller went quiet.
 *
 * <pre>{@code
 * try (ReconcileHarness harness = ReconcileHarness.builder(server)
 *     .controller(b -> b.forResource(ConfigMap.class).owns(Pod.class))
 *     .reconciler((client, informers) -> new MyReconciler(client, informers))
 *     .start()) {
 *   ReconcileHarness.Report report = harness.runUntilQuiet(Duration.ofSeconds(30));
 *   assertThat(report.quiet()).isTrue();
 *   assertThat(report.writes()).hasSize(3);
 * }
 * }</pre>
 *
 * <p>Quiet means: no reconcile running, every informer of the harness has received every change the
 * server committed in its resource, namespace and selectors (so an event still on its way is waited
 * for however slow the machine), and no reconcile started or finished during the quiet period
 * (default 300 ms of real time) since then, counted from the call at the earliest. A requeue
 * scheduled further out than the quiet period is not waited for. Writes are the journal's write
 * requests in the window, whoever made them (the simulated kubelet's are not requests).
 *
 * <p>Thread-safe.
 */
public final class ReconcileHarness implements AutoCloseable {

  /**
   * What happened during one {@link #runUntilQuiet} call.
   *
   * @param quiet whether the controller went quiet before the deadline
   * @param reconciles the requests reconciled, in the order the reconciles started
   * @param errors what the reconciles threw, in order
   * @param writes the write requests the server answered in the window
   * @param elapsed how long it took
   */
  public record Report(
      boolean quiet,
      List<Request> reconciles,
      List<Throwable> errors,
      List<RequestRecord> writes,
      Duration elapsed) {

    /** Copies the lists. */
    public Report {
      reconciles = List.copyOf(reconciles);
      errors = List.copyOf(errors);
      writes = List.copyOf(writes);
      Objects.requireNonNull(elapsed, "elapsed");
    }
  }

  private final FakeApiServer server;
  private final KubernetesClient client;
  private static final long CATCH_UP_POLL_NANOS = 5_000_000;

  private final SharedInformerFactory informers;
  private final Controller controller;
  private final Duration quietPeriod;
  private final InformerCatchUp catchUp;
  private final Object lock = new Object();
  // Guarded by lock: reconciles in progress, and every reconcile and error since the last report.
  private int running;
  private long lastActivityNanos = System.nanoTime();
  private final List<Request> reconciles = new ArrayList<>();
  private final List<Throwable> errors = new ArrayList<>();
  // Guarded by lock: where the current report window starts in the journal.
  private RequestJournal.Mark windowStart;

  private ReconcileHarness(Builder b) {
    this.server = b.server;
    this.quietPeriod = b.quietPeriod;
    this.client = server.newClient();
    this.windowStart = server.journal().mark();
    this.catchUp = new InformerCatchUp(server.registry());
    server.store().addCommitListener(catchUp);
    this.informers = new TrackingInformerFactory(SharedInformerFactory.create(client), catchUp);
    var factory = Objects.requireNonNull(b.reconciler, "reconciler");
    Reconciler reconciler = factory.apply(client, informers);
    Objects.requireNonNull(reconciler, "the reconciler factory returned null");
    Reconciler observed =
        request -> {
          synchronized (lock) {
            running++;
            reconciles.add(request);
            lastActivityNanos = System.nanoTime();
          }
          try {
            return reconciler.reconcile(request);
          } catch (Exception | Error e) {
            synchronized (lock) {
              errors.add(e);
            }
            throw e;
          } finally {
            synchronized (lock) {
              running--;
              lastActivityNanos = System.nanoTime();
              lock.notifyAll();
            }
          }
        };
    ControllerBuilder controllerBuilder =
        Objects.requireNonNull(b.controller, "controller")
            .apply(Controllers.builder(informers).named(b.name))
            .reconciler(observed);
    this.controller = controllerBuilder.build();
  }

  /** A builder for a harness on {@code server}. */
  public static Builder builder(FakeApiServer server) {
    return new Builder(server);
  }

  /** The client the reconciler writes through (closed with the harness). */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Waits until the controller is quiet or {@code deadline} passed, and reports the reconciles,
   * errors and writes since the previous call (or the start).
   *
   * @throws IllegalArgumentException if {@code deadline} is not positive
   */
  public Report runUntilQuiet(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive: " + deadline);
    }
    long start = System.nanoTime();
    long end = start + deadline.toNanos();
    boolean quiet;
    List<Request> seen;
    List<Throwable> failed;
    RequestJournal.Mark mark;
    synchronized (lock) {
      mark = windowStart;
      boolean caughtUp = catchUp.caughtUp();
      while (true) {
        long now = System.nanoTime();
        boolean caughtUpNow = catchUp.caughtUp();
        if (caughtUpNow && !caughtUp) {
          // The last change just reached the caches: its handlers and worker get a full period.
          lastActivityNanos = Math.max(lastActivityNanos, now);
        }
        caughtUp = caughtUpNow;
        // Changes made just before this call need time to reach the controller.
        long quietFor = now - Math.max(lastActivityNanos, start);
        if (running == 0 && caughtUp && quietFor >= quietPeriod.toNanos()) {
          quiet = true;
          break;
        }
        if (now >= end) {
          quiet = false;
          break;
        }
        long wait;
        if (running > 0) {
          wait = end - now;
        } else if (!caughtUp) {
          wait = Math.min(end - now, CATCH_UP_POLL_NANOS); // caches do not notify this lock
        } else {
          wait = Math.min(end - now, quietPeriod.toNanos() - quietFor);
        }
        try {
          lock.wait(Math.max(1, wait / 1_000_000), 0);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for quiet", e);
        }
      }
      seen = List.copyOf(reconciles);
      failed = List.copyOf(errors);
      reconciles.clear();
      errors.clear();
      windowStart = server.journal().mark();
    }
    return new Report(
        quiet,
        seen,
        failed,
        server.journal().records(RequestMatcher.writes().since(mark)),
        Duration.ofNanos(System.nanoTime() - start));
  }

  private ReconcileHarness startController() {
    synchronized (lock) {
      windowStart = server.journal().mark();
      lastActivityNanos = System.nanoTime();
    }
    controller.start();
    return this;
  }

  /** Stops the controller, its informers and its client. */
  @Override
  public void close() {
    server.store().removeCommitListener(catchUp);
    try {
      controller.close();
    } finally {
      try {
        informers.close();
      } finally {
        client.close();
      }
    }
  }

  /** Options of a harness. Not thread-safe. */
  public static final class Builder {
    private final FakeApiServer server;
    private @Nullable UnaryOperator<ControllerBuilder> controller;
    private @Nullable BiFunction<KubernetesClient, SharedInformerFactory, Reconciler> reconciler;
    private Duration quietPeriod = Duration.ofMillis(300);
    private String name = "harness";

    private Builder(FakeApiServer server) {
      this.server = Objects.requireNonNull(server, "server");
    }

    /**
     * What the controller watches: {@code b -> b.forResource(...).owns(...)}; the harness names it
     * and sets the reconciler.
     */
    public Builder controller(UnaryOperator<ControllerBuilder> configure) {
      this.controller = Objects.requireNonNull(configure, "configure");
      return this;
    }

    /** Makes the reconciler from the harness's client and informer factory. */
    public Builder reconciler(
        BiFunction<KubernetesClient, SharedInformerFactory, Reconciler> factory) {
      this.reconciler = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * How long without any reconcile counts as quiet. Default 300 ms.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder quietPeriod(Duration period) {
      Objects.requireNonNull(period, "period");
      if (period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException("quietPeriod must be positive: " + period);
      }
      this.quietPeriod = period;
      return this;
    }

    /** The controller's name (metrics, threads). Default {@code harness}. */
    public Builder name(String controllerName) {
      this.name = Objects.requireNonNull(controllerName, "controllerName");
      return this;
    }

    /**
     * Builds the controller and starts it (its caches synced).
     *
     * @throws IllegalStateException if {@link #controller} or {@link #reconciler} is missing
     */
    public ReconcileHarness start() {
      if (controller == null || reconciler == null) {
        throw new IllegalStateException("a harness needs controller(...) and reconciler(...)");
      }
      return new ReconcileHarness(this).startController();
    }
  }
}
