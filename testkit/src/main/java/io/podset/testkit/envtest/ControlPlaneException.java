package io.podset.testkit.envtest;

/**
 * A control-plane process failed to start, died, or did not become ready in time; or a CRD was not
 * served in time. The message holds the end of the failing process's log when there is one.
 */
public final class ControlPlaneException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, with the end of the process log when relevant
   */
  public ControlPlaneException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message what failed
   * @param cause the underlying failure
   */
  public ControlPlaneException(String message, Throwable cause) {
    super(message, cause);
  }
}
