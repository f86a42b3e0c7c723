package io.podset.runtime.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Cleans up what a primary object holds outside Kubernetes' garbage collection (an external
 * resource, an object in another namespace) before the object goes away. Registered with {@code
 * controllerFor(...).cleanup(this::cleanup)}.
 *
 * <p>Guarantees, given a finalizer on the primary (the controller manages it):
 *
 * <ul>
 *   <li>The finalizer is added before the first write of the first reconcile of an object, so an
 *       object never exists unfinalized once this controller has acted on it.
 *   <li>Once the object is being deleted (its {@code deletionTimestamp} is set) and still carries
 *       the finalizer, the cleanup runs instead of the reconcile, with the same read-your-writes
 *       guarantee ({@link ObjectReconciler}); it is called again after a failure, with the
 *       controller's backoff, and after {@link Result#requeueAfter}.
 *   <li>The finalizer is removed when the cleanup returns {@link Result#done()} (or null); a
 *       removal that meets a conflict is retried on the current object, one that finds the object
 *       gone counts as done.
 * </ul>
 *
 * <p>Assumptions and caveats: the cleanup must be idempotent: it runs at least once, and again if
 * the process dies between the cleanup and the finalizer's removal. It does not run for objects
 * deleted before this controller added its finalizer (while it was down, say), nor when someone
 * removes the finalizer by hand. While the cleanup keeps failing, the object stays (terminating).
 * Objects the primary owns through owner references are deleted by the garbage collector after the
 * primary is gone: do not delete them here.
 *
 * @param <P> the primary type
 */
@FunctionalInterface
public interface Cleanup<P extends HasMetadata> {

  /**
   * Releases what {@code primary} holds.
   *
   * @return {@link Result#done()} to remove the finalizer, {@link Result#requeueAfter} to keep it
   *     and be called again later (waiting for an external deletion, say)
   * @throws Exception to retry with backoff, keeping the finalizer
   */
  @Nullable Result cleanup(P primary, Context<P> context) throws Exception;
}
