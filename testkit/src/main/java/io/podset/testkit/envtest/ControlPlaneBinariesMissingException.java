package io.podset.testkit.envtest;

/**
 * The control-plane executables are not where {@link ControlPlaneBinaries#locate()} looks. The
 * message says where it looked and how to build them.
 */
public final class ControlPlaneBinariesMissingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message where the search looked and how to build the binaries
   */
  public ControlPlaneBinariesMissingException(String message) {
    super(message);
  }
}
