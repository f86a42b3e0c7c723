package io.podset.runtime.manager;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The fields of a Lease that leader election reads and writes.
 *
 * @param holderIdentity current holder, or empty when released
 * @param leaseDurationSeconds the holder's lease duration
 * @param acquireTime when the holder acquired it
 * @param renewTime when the holder last renewed it
 * @param leaseTransitions how many times the holder changed
 * @param resourceVersion for optimistic concurrency; null for a record not yet stored
 */
record LeaseRecord(
    @Nullable String holderIdentity,
    int leaseDurationSeconds,
    @Nullable Instant acquireTime,
    @Nullable Instant renewTime,
    int leaseTransitions,
    @Nullable String resourceVersion) {

  boolean heldBy(String identity) {
    return identity.equals(holderIdentity);
  }

  boolean released() {
    return holderIdentity == null || holderIdentity.isEmpty();
  }

  /** Same content, ignoring the resourceVersion: used to detect a renewal by the holder. */
  boolean sameContent(LeaseRecord other) {
    return other != null
        && java.util.Objects.equals(holderIdentity, other.holderIdentity)
        && java.util.Objects.equals(renewTime, other.renewTime)
        && leaseTransitions == other.leaseTransitions;
  }
}
