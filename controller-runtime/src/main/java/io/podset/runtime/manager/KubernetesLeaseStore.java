package io.podset.runtime.manager;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A {@link LeaseStore} on a {@code coordination.k8s.io/v1} Lease object. */
final class KubernetesLeaseStore implements LeaseStore {

  private final KubernetesClient client;
  private final String namespace;
  private final String name;

  KubernetesLeaseStore(KubernetesClient client, String namespace, String name) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
  }

  @Override
  public Optional<LeaseRecord> get() {
    Lease lease = client.leases().inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(lease).map(KubernetesLeaseStore::toRecord);
  }

  @Override
  public LeaseRecord create(LeaseRecord record) {
    try {
      return toRecord(client.leases().inNamespace(namespace).resource(toLease(record)).create());
    } catch (KubernetesClientException e) {
      throw conflictOr(e);
    }
  }

  @Override
  public LeaseRecord update(LeaseRecord record) {
    try {
      return toRecord(client.leases().inNamespace(namespace).resource(toLease(record)).update());
    } catch (KubernetesClientException e) {
      throw conflictOr(e);
    }
  }

  private RuntimeException conflictOr(KubernetesClientException e) {
    if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
      return new LeaseConflictException("lease " + namespace + "/" + name + ": " + e.getMessage());
    }
    return e;
  }

  private Lease toLease(LeaseRecord record) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withResourceVersion(record.resourceVersion())
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(record.holderIdentity())
        .withLeaseDurationSeconds(record.leaseDurationSeconds())
        .withAcquireTime(toZoned(record.acquireTime()))
        .withRenewTime(toZoned(record.renewTime()))
        .withLeaseTransitions(record.leaseTransitions())
        .endSpec()
        .build();
  }

  private static LeaseRecord toRecord(Lease lease) {
    var spec = lease.getSpec();
    return new LeaseRecord(
        spec == null ? null : spec.getHolderIdentity(),
        spec == null || spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds(),
        spec == null ? null : toInstant(spec.getAcquireTime()),
        spec == null ? null : toInstant(spec.getRenewTime()),
        spec == null || spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions(),
        lease.getMetadata().getResourceVersion());
  }

  private static @Nullable ZonedDateTime toZoned(@Nullable Instant instant) {
    return instant == null ? null : instant.atZone(ZoneOffset.UTC);
  }

  private static @Nullable Instant toInstant(@Nullable ZonedDateTime time) {
    return time == null ? null : time.toInstant();
  }
}
