package io.podset.runtime.controller;

import io.podset.runtime.reconcile.Request;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Consulted by a worker before it reconciles a request: a request held back is not reconciled now
 * but added to the queue again once the returned future completes.
 */
interface ReconcileGate {

  /** Null when {@code request} may be reconciled now, else a future completed when it may. */
  @Nullable CompletableFuture<Void> heldBack(Request request);
}
