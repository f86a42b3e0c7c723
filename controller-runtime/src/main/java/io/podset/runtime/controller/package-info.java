/**
 * The control loop: watches feed a rate-limited work queue; worker threads reconcile one request at
 * a time each.
 *
 * <p>Build a controller with {@link io.podset.runtime.controller.Controllers#builder}: name it,
 * give it its primary resource, the resources it owns and any other watches, a {@link
 * io.podset.runtime.reconcile.Reconciler}, and optionally event filters, worker count, rate
 * limiter, clock and metrics registry. {@link io.podset.runtime.controller.Controller#start()}
 * starts the informers it needs, waits for their caches, then starts the workers.
 *
 * <p>Guarantees: a request is never reconciled by two workers at once; events that arrive while a
 * request waits coalesce into one reconcile; a failure is retried with per-request exponential
 * backoff and logged once; a thrown {@link java.lang.Error} does not kill the worker. Each
 * reconcile runs with the SLF4J MDC keys {@code controller}, {@code namespace}, {@code name},
 * {@code reconcileId}, {@code cause} (the events that led to it, or {@code retry}/{@code requeue})
 * and {@code retries}.
 */
package io.podset.runtime.controller;
