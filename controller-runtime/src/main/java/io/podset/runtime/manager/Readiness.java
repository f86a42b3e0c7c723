package io.podset.runtime.manager;

import io.podset.runtime.informer.InformerHealth;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The probes' answers, in the API server's {@code /readyz?verbose} style: one line per check, so
 * {@code kubectl describe pod} and a person with curl both see why a pod is not ready.
 */
final class Readiness {

  private final SharedInformerFactory informers;
  private final BooleanSupplier leader;
  private final CompletableFuture<Void> terminated;

  Readiness(
      SharedInformerFactory informers, BooleanSupplier leader, CompletableFuture<Void> terminated) {
    this.informers = informers;
    this.leader = leader;
    this.terminated = terminated;
  }

  /** Live unless the manager failed; a failed manager should be restarted. */
  HealthServer.Response liveness() {
    if (terminated.isCompletedExceptionally()) {
      return HealthServer.Response.text(500, "[-]manager failed\n");
    }
    return HealthServer.Response.text(200, "ok\n");
  }

  /**
   * Ready when every informer has synced and is watching. A standby is ready too (its caches are
   * warm); leadership is reported but does not gate readiness.
   */
  HealthServer.Response readiness() {
    StringBuilder body = new StringBuilder();
    boolean ready = !terminated.isDone();
    if (!ready) {
      body.append("[-]manager stopped\n");
    }
    if (informers.informers().isEmpty()) {
      ready = false;
      body.append("[-]informers: none started\n");
    }
    for (SharedInformer<?> informer : informers.informers()) {
      InformerHealth health = informer.health();
      String name = "informer " + informer.type().getSimpleName();
      if (health.healthy()) {
        body.append("[+]")
            .append(name)
            .append(" ok (resourceVersion ")
            .append(health.lastSyncedResourceVersion())
            .append(")\n");
      } else {
        ready = false;
        body.append("[-]")
            .append(name)
            .append(health.synced() ? " synced but not watching" : " not synced");
        if (health.lastError() != null) {
          body.append(": ").append(health.lastError());
        }
        body.append('\n');
      }
    }
    body.append("[+]leader election: ")
        .append(leader.getAsBoolean() ? "leading" : "standby")
        .append('\n');
    body.append(ready ? "readyz check passed\n" : "readyz check failed\n");
    return HealthServer.Response.text(ready ? 200 : 503, body.toString());
  }
}
