package io.podset.runtime.manager;

/**
 * A write refused by the manager's client because this process is not, or may no longer be, the
 * leader: it failed to renew its Lease within the renew deadline. The reconcile fails and is not
 * retried by this instance once its controllers stop.
 */
public final class FencedWriteException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  FencedWriteException(String message) {
    super(message);
  }
}
