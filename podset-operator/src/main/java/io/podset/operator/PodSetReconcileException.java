package io.podset.operator;

/**
 * A reconcile of a PodSet failed in a way a retry may fix (a refused or failed pod write, a status
 * conflict). Thrown after the failure is recorded in the PodSet's status, so the controller retries
 * the PodSet with its per-key exponential backoff and other PodSets are unaffected.
 */
public final class PodSetReconcileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A failure described by {@code message}, which names the PodSet and what failed. */
  public PodSetReconcileException(String message) {
    super(message);
  }

  /** A failure described by {@code message}, caused by {@code cause}. */
  public PodSetReconcileException(String message, Throwable cause) {
    super(message, cause);
  }
}
