package io.podset.runtime.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reconcile metrics under controller-runtime's names, so dashboards written for Go operators work:
 * {@code controller_runtime_reconcile_total{controller,result}}, {@code
 * controller_runtime_reconcile_errors_total}, {@code
 * controller_runtime_terminal_reconcile_errors_total}, {@code
 * controller_runtime_reconcile_time_seconds}, {@code controller_runtime_active_workers} and {@code
 * controller_runtime_max_concurrent_reconciles}.
 */
final class ControllerMetrics {

  static final String SUCCESS = "success";
  static final String ERROR = "error";
  static final String REQUEUE_AFTER = "requeue_after";

  private final Counter success;
  private final Counter error;
  private final Counter requeueAfter;
  private final Counter errors;
  private final Counter terminalErrors;
  private final Timer reconcileTime;
  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();

  ControllerMetrics(MeterRegistry registry, String controller, AtomicInteger active, int workers) {
    this.registry = registry;
    success = outcome(registry, controller, SUCCESS);
    error = outcome(registry, controller, ERROR);
    requeueAfter = outcome(registry, controller, REQUEUE_AFTER);
    errors =
        Counter.builder("controller_runtime_reconcile_errors")
            .description("Total number of reconciliation errors per controller")
            .tag("controller", controller)
            .register(registry);
    terminalErrors =
        Counter.builder("controller_runtime_terminal_reconcile_errors")
            .description("Total number of terminal reconciliation errors per controller")
            .tag("controller", controller)
            .register(registry);
    reconcileTime =
        Timer.builder("controller_runtime_reconcile_time")
            .description("Length of time per reconciliation per controller")
            .tag("controller", controller)
            .publishPercentileHistogram()
            .register(registry);
    meters.add(
        Gauge.builder("controller_runtime_active_workers", active, AtomicInteger::get)
            .description("Number of currently used workers per controller")
            .tag("controller", controller)
            .register(registry));
    meters.add(
        Gauge.builder("controller_runtime_max_concurrent_reconciles", () -> workers)
            .description("Maximum number of concurrent reconciles per controller")
            .tag("controller", controller)
            .register(registry));
  }

  private static Counter outcome(MeterRegistry registry, String controller, String result) {
    return Counter.builder("controller_runtime_reconcile")
        .description("Total number of reconciliations per controller")
        .tag("controller", controller)
        .tag("result", result)
        .register(registry);
  }

  void record(String result, long nanos) {
    reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
    switch (result) {
      case SUCCESS -> success.increment();
      case REQUEUE_AFTER -> requeueAfter.increment();
      default -> {
        error.increment();
        errors.increment();
      }
    }
  }

  void recordTerminal() {
    terminalErrors.increment();
  }

  /**
   * Removes the gauges, which hold this controller's state: a later controller of the same name
   * registers its own (Micrometer would otherwise keep the first one's). Counters and the timer
   * stay, so totals survive a restart of the controller within the process.
   */
  synchronized void close() {
    meters.forEach(registry::remove);
    meters.clear();
  }
}
