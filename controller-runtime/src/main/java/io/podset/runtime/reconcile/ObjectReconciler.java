package io.podset.runtime.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Drives one primary object toward its desired state: the typed form of {@link Reconciler}, built
 * with {@code manager.controllerFor(Type.class)...reconcile(this::reconcile)}.
 *
 * <p>What the controller guarantees before each call:
 *
 * <ul>
 *   <li>{@code primary} is the object as the cache has it, as a copy of your own (never null). A
 *       primary the cache no longer has is not reconciled: what it owned is the garbage
 *       collector's. A primary that is being deleted goes to the registered {@link Cleanup}
 *       instead, or is not reconciled when there is none.
 *   <li><b>Read your writes.</b> Every write made through the {@link Context} in the previous
 *       reconcile of the same object is visible in the caches: the next reconcile starts only once
 *       every informer involved has observed the resourceVersion the server returned (bounded by
 *       the controller's read-your-writes timeout, after which it runs anyway, counts {@code
 *       controller_runtime_read_your_writes_timeouts_total} and logs one line). Writes by others
 *       trigger reconciles as usual.
 *   <li>Never two reconciles of the same object at once; events that arrive meanwhile are coalesced
 *       into one more reconcile.
 * </ul>
 *
 * <p>Outcomes are those of {@link Reconciler}: {@link Result#done()}, {@link Result#requeueAfter},
 * an exception for a retry with per-object exponential backoff, or {@link
 * TerminalReconcileException} for no retry until the next event. A reconcile in which the context
 * found the primary gone from the server ({@link PrimaryGoneException}, from a create) ends as done
 * whatever it throws: the primary's deletion event comes next.
 *
 * @param <P> the primary type
 */
@FunctionalInterface
public interface ObjectReconciler<P extends HasMetadata> {

  /**
   * Reconciles {@code primary}.
   *
   * @param primary a copy of the cached object; change it only to compute what to write
   * @param context reads of the caches and the writes that the next reconcile will see
   * @return what the controller should do next; null means {@link Result#done()}
   * @throws Exception to ask for a rate-limited retry
   */
  Result reconcile(P primary, Context<P> context) throws Exception;
}
