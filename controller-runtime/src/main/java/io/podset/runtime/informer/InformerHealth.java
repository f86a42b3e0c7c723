package io.podset.runtime.informer;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What an informer is doing right now, for readiness checks and diagnostics.
 *
 * @param watching a watch is established (false while listing, backing off or failing)
 * @param synced the initial list has been processed into the cache
 * @param lastEventTime when the last list completed or watch event arrived, or null
 * @param lastSyncedResourceVersion the resourceVersion the reflector has reached ("" before the
 *     first list)
 * @param relistCount lists after the first one (each follows a failure or an expired version)
 * @param lastError the error of the current failure streak, or null once a list completed or a
 *     watch was established again
 */
public record InformerHealth(
    boolean watching,
    boolean synced,
    @Nullable Instant lastEventTime,
    @Nullable String lastSyncedResourceVersion,
    long relistCount,
    @Nullable String lastError) {

  /** Synced and watching: the cache follows the server. */
  public boolean healthy() {
    return synced && watching;
  }
}
