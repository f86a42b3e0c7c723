package io.podset.runtime.reconcile;

/**
 * Thrown by a {@link Context} write that would create an object owned by the primary when the API
 * server no longer has that primary (deleted, being deleted, or replaced by another object of the
 * same name) although the cache still shows it. Nothing was sent.
 *
 * <p>Let it propagate: the controller ends the reconcile as done, without error and without retry.
 * The primary's deletion event is on its way to the cache; it reconciles the object once more (a
 * primary being deleted goes to the cleanup, if any), or not at all once it is gone. A reconcile in
 * which the context found the primary gone never retries, whatever it throws afterwards.
 */
public final class PrimaryGoneException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The primary named in {@code message} is gone from the server. */
  public PrimaryGoneException(String message) {
    super(message);
  }
}
