package io.podset.runtime.manager;

import java.util.Optional;

/** A Lease in memory with the API server's optimistic concurrency; failures can be switched on. */
final class InMemoryLeaseStore implements LeaseStore {

  private LeaseRecord stored;
  private long version;
  private volatile boolean failing;

  void failing(boolean failing) {
    this.failing = failing;
  }

  synchronized LeaseRecord stored() {
    return stored;
  }

  @Override
  public synchronized Optional<LeaseRecord> get() {
    failIfAsked();
    return Optional.ofNullable(stored);
  }

  @Override
  public synchronized LeaseRecord create(LeaseRecord record) {
    failIfAsked();
    if (stored != null) {
      throw new LeaseConflictException("exists");
    }
    stored = withVersion(record);
    return stored;
  }

  @Override
  public synchronized LeaseRecord update(LeaseRecord record) {
    failIfAsked();
    if (stored == null || !stored.resourceVersion().equals(record.resourceVersion())) {
      throw new LeaseConflictException("stale resourceVersion " + record.resourceVersion());
    }
    stored = withVersion(record);
    return stored;
  }

  private LeaseRecord withVersion(LeaseRecord record) {
    return new LeaseRecord(
        record.holderIdentity(),
        record.leaseDurationSeconds(),
        record.acquireTime(),
        record.renewTime(),
        record.leaseTransitions(),
        Long.toString(++version));
  }

  private void failIfAsked() {
    if (failing) {
      throw new IllegalStateException("injected: API server unreachable");
    }
  }
}
