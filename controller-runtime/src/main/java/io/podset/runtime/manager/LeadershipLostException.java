package io.podset.runtime.manager;

/** The manager stopped because it lost its Lease and was configured to exit. */
public final class LeadershipLostException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  LeadershipLostException(LeaderElectionConfig config) {
    super(
        config.identity()
            + " lost the lease "
            + config.leaseNamespace()
            + "/"
            + config.leaseName()
            + " (no renewal within "
            + config.renewDeadline()
            + "); exiting so a restart begins clean");
  }
}
