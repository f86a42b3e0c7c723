package io.podset.runtime.manager;

import java.time.Duration;
import java.util.Objects;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, with client-go's timing.
 *
 * @param leaseNamespace namespace of the Lease
 * @param leaseName name of the Lease
 * @param identity this process's identity, unique among candidates (e.g. the pod name)
 * @param leaseDuration how long followers wait after the last observed renewal before taking over
 *     (default 15 s)
 * @param renewDeadline how long the leader keeps trying to renew before it stops acting; after it,
 *     the leader's writes are refused (default 10 s). Each of the leader's attempts is abandoned
 *     after {@link #attemptTimeout()} (half the renew deadline) or at the deadline, whichever comes
 *     first, so a hung request cannot hold it past the deadline
 * @param retryPeriod time between attempts to acquire or renew (default 2 s)
 * @param releaseOnCancel whether a graceful shutdown releases the Lease so a standby takes over at
 *     once
 * @param onLoss what the manager does after losing leadership
 */
public record LeaderElectionConfig(
    String leaseNamespace,
    String leaseName,
    String identity,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod,
    boolean releaseOnCancel,
    OnLoss onLoss) {

  /** What to do after leadership is lost. */
  public enum OnLoss {
    /** Stop the manager with a failure, so the process exits and restarts clean (the default). */
    EXIT,
    /** Stop the controllers and campaign again; caches stay warm. */
    CAMPAIGN_AGAIN
  }

  /**
   * @throws IllegalArgumentException naming the option when a name is blank, a duration is not
   *     positive, {@code renewDeadline >= leaseDuration} or {@code retryPeriod >= renewDeadline}
   */
  public LeaderElectionConfig {
    requireText(leaseNamespace, "leaseNamespace");
    requireText(leaseName, "leaseName");
    requireText(identity, "identity");
    requirePositive(leaseDuration, "leaseDuration");
    requirePositive(renewDeadline, "renewDeadline");
    requirePositive(retryPeriod, "retryPeriod");
    Objects.requireNonNull(onLoss, "onLoss");
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException(
          "renewDeadline ("
              + renewDeadline
              + ") must be shorter than leaseDuration ("
              + leaseDuration
              + ")");
    }
    if (retryPeriod.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException(
          "retryPeriod ("
              + retryPeriod
              + ") must be shorter than renewDeadline ("
              + renewDeadline
              + ")");
    }
  }

  /**
   * How long one attempt of the leader to renew may take before it is abandoned (and, when time is
   * left before the renew deadline, tried again): half the renew deadline, so a hung connection
   * leaves room for at least one more try.
   */
  public Duration attemptTimeout() {
    return renewDeadline.dividedBy(2);
  }

  /** The defaults: 15 s lease, 10 s renew deadline, 2 s retry, release on cancel, exit on loss. */
  public static LeaderElectionConfig of(String leaseNamespace, String leaseName, String identity) {
    return new LeaderElectionConfig(
        leaseNamespace,
        leaseName,
        identity,
        Duration.ofSeconds(15),
        Duration.ofSeconds(10),
        Duration.ofSeconds(2),
        true,
        OnLoss.EXIT);
  }

  /** A copy with other timings. */
  public LeaderElectionConfig withTimings(
      Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    return new LeaderElectionConfig(
        leaseNamespace,
        leaseName,
        identity,
        leaseDuration,
        renewDeadline,
        retryPeriod,
        releaseOnCancel,
        onLoss);
  }

  /** A copy with another loss behaviour. */
  public LeaderElectionConfig withOnLoss(OnLoss onLoss) {
    return new LeaderElectionConfig(
        leaseNamespace,
        leaseName,
        identity,
        leaseDuration,
        renewDeadline,
        retryPeriod,
        releaseOnCancel,
        onLoss);
  }

  /** A copy that does or does not release the Lease on shutdown. */
  public LeaderElectionConfig withReleaseOnCancel(boolean release) {
    return new LeaderElectionConfig(
        leaseNamespace,
        leaseName,
        identity,
        leaseDuration,
        renewDeadline,
        retryPeriod,
        release,
        onLoss);
  }

  private static void requireText(String value, String option) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(option + " must not be blank, got '" + value + "'");
    }
  }

  private static void requirePositive(Duration value, String option) {
    Objects.requireNonNull(value, option);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, got " + value);
    }
  }
}
