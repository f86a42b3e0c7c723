package io.podset.runtime.manager;

import io.podset.runtime.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a held Lease up on a graceful stop (client-go's ReleaseOnCancel): an empty holder and a
 * one-second duration, so a standby takes over at once instead of after a lease duration.
 */
final class LeaseRelease {

  private static final Logger log = LoggerFactory.getLogger(LeaseRelease.class);

  private LeaseRelease() {}

  /** Releases the Lease if {@code config}'s identity still holds it; failures are logged. */
  static void release(LeaseStore store, Clock clock, LeaderElectionConfig config) {
    // An attempt that was in flight when the elector stopped may renew between our read and
    // write, so a conflict is retried: after it, no new attempt starts and the next read is final.
    for (int attempt = 1; attempt <= 3; attempt++) {
      try {
        Optional<LeaseRecord> current = store.get();
        if (current.isEmpty() || !current.get().heldBy(config.identity())) {
          return;
        }
        LeaseRecord mine = current.get();
        Instant now = clock.instant();
        store.update(
            new LeaseRecord("", 1, now, now, mine.leaseTransitions(), mine.resourceVersion()));
        log.info(
            "Lease {}/{}: released by {}",
            config.leaseNamespace(),
            config.leaseName(),
            config.identity());
        return;
      } catch (LeaseStore.LeaseConflictException conflict) {
        log.debug(
            "Lease {}/{}: release conflicted, retrying",
            config.leaseNamespace(),
            config.leaseName());
      } catch (RuntimeException e) {
        log.warn(
            "Lease {}/{}: release failed: {}",
            config.leaseNamespace(),
            config.leaseName(),
            e.toString());
        return;
      }
    }
  }
}
