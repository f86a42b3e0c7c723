package io.podset.runtime.informer;

import java.util.concurrent.CompletableFuture;

/** The link between an informer and one of its handlers. */
public interface HandlerRegistration extends AutoCloseable {

  /**
   * Whether the informer has synced and this handler has been given (and has returned from) every
   * event of the initial state.
   */
  boolean hasSynced();

  /**
   * Completed once {@link #hasSynced()} turns true, off the informer's and the handler's threads;
   * never completed if the handler is removed first. A handler added to a running informer gets the
   * current state as synthetic adds on its own thread (an inline handler: on the registering
   * thread, before the registration returns); a consumer that keeps state from those events
   * (expectations, for one) must wait for this, not only for the informer's sync.
   */
  CompletableFuture<Void> synced();

  /** Removes the handler; events still buffered for it are dropped. Idempotent. */
  @Override
  void close();
}
