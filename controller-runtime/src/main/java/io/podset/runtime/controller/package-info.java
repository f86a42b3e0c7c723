/**
 * The control loop: watches feed a rate-limited work queue; worker threads reconcile one request at
 * a time each.
 *
 * <p>Most operators use the typed form: {@code manager.controllerFor(Type.class)} returns an {@link
 * io.podset.runtime.controller.ObjectControllerBuilder}, whose reconciler gets the cached primary
 * and a {@link io.podset.runtime.reconcile.Context} with tracked writes (server-side apply that
 * skips what the cache already holds, status without conflicts, finalizers around a cleanup) and
 * the read-your-writes barrier: the next reconcile of an object waits until the caches show the
 * previous one's writes. Its creates are for a primary the server still has: where the caches
 * cannot vouch for it ({@link io.podset.runtime.controller.RecentFaults}) the first create of a
 * reconcile confirms the primary with one GET, and a primary gone ends the reconcile.
 *
 * <p>Underneath, build a controller with {@link io.podset.runtime.controller.Controllers#builder}:
 * name it, give it its primary resource, the resources it owns and any other watches, a {@link
 * io.podset.runtime.reconcile.Reconciler}, and optionally event filters, worker count, rate
 * limiter, clock and metrics registry. {@link io.podset.runtime.controller.Controller#start()}
 * starts the informers it needs, waits for their caches, then starts the workers. Such a reconciler
 * gets the read-your-writes barrier by recording its writes in a {@link
 * io.podset.runtime.controller.ReadYourWrites} given to the builder.
 *
 * <p>Guarantees: a request is never reconciled by two workers at once; events that arrive while a
 * request waits coalesce into one reconcile; a failure is retried with per-request exponential
 * backoff and logged once; a thrown {@link java.lang.Error} does not kill the worker. Each
 * reconcile runs with the SLF4J MDC keys {@code controller}, {@code namespace}, {@code name},
 * {@code reconcileId}, {@code cause} (the events that led to it, or {@code retry}/{@code requeue})
 * and {@code retries}.
 */
@NullMarked
package io.podset.runtime.controller;

import org.jspecify.annotations.NullMarked;
