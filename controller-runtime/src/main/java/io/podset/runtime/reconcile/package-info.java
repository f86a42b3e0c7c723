/**
 * The reconcile API: the one method an operator author writes.
 *
 * <p>Typed: an {@link io.podset.runtime.reconcile.ObjectReconciler} gets the cached primary object
 * and a {@link io.podset.runtime.reconcile.Context} (cached reads as copies; apply, create, delete
 * and status writes that the next reconcile is guaranteed to see); a {@link
 * io.podset.runtime.reconcile.Cleanup} runs before a primary goes, guarded by a finalizer.
 *
 * <p>Raw, as Go's controller-runtime:
 *
 * <p>A {@link io.podset.runtime.reconcile.Reconciler} receives a {@link
 * io.podset.runtime.reconcile.Request} naming one object and returns a {@link
 * io.podset.runtime.reconcile.Result}. The controller guarantees that a given request is never
 * reconciled by two workers at once, coalesces events that arrive while a request waits, and
 * retries failures with per-key exponential backoff. A {@link
 * io.podset.runtime.reconcile.TerminalReconcileException} stops the retries for that request until
 * the next event.
 */
@NullMarked
package io.podset.runtime.reconcile;

import org.jspecify.annotations.NullMarked;
