package io.podset.runtime.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.recorder.EventRecorder;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a typed reconcile reads and writes through: the caches of the types its controller watches,
 * and writes the next reconcile of the same object is guaranteed to see (see {@link
 * ObjectReconciler}).
 *
 * <p>Reads come from the informer caches, never from the API server, and return copies: change them
 * freely. Writes go to the API server through the manager's client (fenced under leader election)
 * and block until it answered; a refused write throws fabric8's {@code KubernetesClientException}
 * with the HTTP code, which fails the reconcile and retries it with backoff.
 *
 * <p>Only writes made through this context are waited for: writes through {@link #client()}
 * directly are not.
 *
 * <p><b>Nothing created for a primary that is gone.</b> The cache may still show a primary the
 * server has deleted, its deletion event not yet arrived; objects created for it would only be
 * deleted again by the garbage collector. So {@link #create} and an {@link #apply} of an object not
 * in the cache first make sure the primary is still there, at no cost while the caches can vouch
 * for it: the primary's cache follows its watch (open, applied a change or bookmark within the past
 * 2 s, showed our own writes within 250 ms), no cache of the controller met a fault (a failed list
 * or watch, a relist) within the past 10 s, no reconcile of the controller failed with a fault a
 * retry may cure (409, 429, 5xx, no answer) within the past 10 s, and the previous reconcile of
 * this object did not fail (a retry always confirms). Otherwise the first such write of the
 * reconcile reads the primary from the server once (a GET); when the server no longer has it (gone,
 * another uid, or being deleted) or the cache already shows it gone, that write and every later one
 * of the reconcile throw {@link PrimaryGoneException} without sending anything. Let it propagate:
 * the controller ends the reconcile as done, without error or retry, and the primary's deletion
 * event follows. Updates of objects the cache has, deletes and status writes are not confirmed:
 * they create nothing. A cleanup ({@link Cleanup}) is not confirmed either: it runs for a primary
 * known to be going.
 *
 * <p>A context belongs to one reconcile: do not keep it or use it from other threads.
 *
 * @param <P> the primary type
 */
public interface Context<P extends HasMetadata> {

  /** The object being reconciled, including the context's own writes to it so far (a copy). */
  P primary();

  /**
   * The cached object of a watched type named {@code name}, in the primary's namespace (for a
   * namespaced type), as a copy.
   *
   * @throws IllegalArgumentException if the controller does not watch {@code type} ({@code
   *     owns(...)} or {@code watches(...)})
   */
  <S extends HasMetadata> Optional<S> get(Class<S> type, String name);

  /**
   * The cached objects of {@code type} whose controller owner reference points at the primary, as
   * copies.
   *
   * @throws IllegalArgumentException if the controller does not own {@code type} ({@code
   *     owns(...)})
   */
  <S extends HasMetadata> List<S> owned(Class<S> type);

  /**
   * Makes the server hold {@code desired} for the fields it sets: sets the primary as its
   * controller owner (and the primary's namespace if it has none) and applies it by server-side
   * apply with this controller's field manager, forcing conflicts. Writes nothing when the cached
   * object already holds every field {@code desired} sets, with equal values (as the server
   * normalises them: {@code 0.5} CPU equals {@code 500m}; a zero value the server omits equals an
   * absent field), and this controller last applied the same fields: a reconcile in steady state
   * makes no request, while drift in any applied field is corrected and fields dropped from {@code
   * desired} are removed. Applied objects carry the annotation {@value
   * io.podset.runtime.controller.ObjectControllerBuilder#APPLIED_ANNOTATION} to remember that.
   *
   * <p>An object the cache does not have is created only for a primary the server still has (see
   * the class documentation).
   *
   * @return the object as the server holds it (the cached copy when nothing was written)
   * @throws IllegalArgumentException if {@code desired} has no name, or the controller does not own
   *     its type
   * @throws io.podset.runtime.ownership.OwnershipException if another controller owns the object
   * @throws PrimaryGoneException if the object would be created and the primary is gone from the
   *     server: nothing was sent; let it propagate (the reconcile ends without retry)
   */
  <S extends HasMetadata> S apply(S desired);

  /**
   * Creates {@code object} owned by the primary (controller owner reference; the primary's
   * namespace if it has none), for objects that must not be applied, such as pods named by {@code
   * generateName}. The next reconcile sees it in the cache (when the controller watches its type).
   * Only for a primary the server still has (see the class documentation).
   *
   * @return the created object's name, uid and resourceVersion
   * @throws PrimaryGoneException if the primary is gone from the server: nothing was sent; let it
   *     propagate (the reconcile ends without retry)
   */
  io.podset.runtime.client.WrittenObject create(HasMetadata object);

  /**
   * Deletes {@code object} (precondition: its uid), in the background for its dependents. The next
   * reconcile no longer sees it in the cache, or sees it terminating.
   *
   * @return false if it was already gone
   */
  boolean delete(HasMetadata object);

  /**
   * Writes the primary's status as {@code change} leaves it on a copy of the primary (whose status
   * is created empty when it is null and the status type has a no-argument constructor), through
   * the {@code /status} subresource, only when it differs from the current status. The write
   * replaces the status without a resourceVersion precondition (it checks the uid), so a stale
   * primary never turns it into a conflict; the status is this controller's alone.
   *
   * @return the primary with the new status (the current primary when nothing changed)
   */
  P updateStatus(Consumer<? super P> change);

  /**
   * A condition about the primary at its current generation, stamped now: {@code status} true or
   * false, a {@code reason} in UpperCamelCase and a human-readable message. Set it with {@link
   * io.podset.runtime.status.Conditions#set}, which keeps the previous {@code lastTransitionTime}
   * when the status did not change.
   *
   * @throws IllegalArgumentException if {@code type} or {@code reason} is not a valid condition
   *     type or reason
   */
  Condition condition(String type, boolean status, String reason, String message);

  /** Records Kubernetes Events about the primary (or other objects). */
  EventRecorder events();

  /**
   * The manager's client, for what the context does not offer; writes through it are not tracked.
   */
  KubernetesClient client();
}
