package io.podset.runtime.reconcile;

/**
 * Drives the actual state of one object toward its desired state.
 *
 * <p>Threading: called from the controller's worker threads, never concurrently for the same {@link
 * Request}. Implementations read the informer caches (never list the API server) and write through
 * the client; they must be idempotent, because a request is reconciled again after every change of
 * the object or of what it owns, after a failure and after a resync.
 *
 * <p>Outcomes: returning {@link Result#done()} forgets the request's backoff; {@link
 * Result#requeueAfter} schedules the request again after the delay; throwing any exception (an
 * {@link Error} included) requeues it with per-request exponential backoff; throwing {@link
 * TerminalReconcileException} logs the failure and does not retry until the next event.
 */
@FunctionalInterface
public interface Reconciler {

  /**
   * Reconciles the object named by {@code request}.
   *
   * @param request the namespace and name of the object; it may no longer exist
   * @return what the controller should do next
   * @throws Exception to ask for a rate-limited retry
   */
  Result reconcile(Request request) throws Exception;
}
