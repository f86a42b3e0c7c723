package io.podset.runtime.reconcile;

/**
 * A failure that retrying cannot fix (invalid user input, for instance). The controller logs it
 * once, counts it as an error and does not requeue the request; the next event on the object
 * reconciles it again.
 */
public class TerminalReconcileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A terminal failure with a message that says what is wrong and with which field and value. */
  public TerminalReconcileException(String message) {
    super(message);
  }

  /** A terminal failure caused by {@code cause}. */
  public TerminalReconcileException(String message, Throwable cause) {
    super(message, cause);
  }
}
