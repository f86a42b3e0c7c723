package io.podset.runtime.manager;

import java.util.Optional;

/** Reads and writes the Lease; writes use optimistic concurrency on the resourceVersion. */
interface LeaseStore {

  /** The current record, or empty when the Lease does not exist. */
  Optional<LeaseRecord> get();

  /**
   * Creates the Lease.
   *
   * @throws LeaseConflictException if it already exists
   */
  LeaseRecord create(LeaseRecord record);

  /**
   * Replaces the Lease if its resourceVersion still equals {@code record.resourceVersion()}.
   *
   * @throws LeaseConflictException if somebody else wrote it first
   */
  LeaseRecord update(LeaseRecord record);

  /** Another candidate wrote the Lease first. */
  final class LeaseConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LeaseConflictException(String message) {
      super(message);
    }
  }
}
