package io.podset.runtime.informer;

/** The link between an informer and one of its handlers. */
public interface HandlerRegistration extends AutoCloseable {

  /**
   * Whether the informer has synced and this handler has been given (and has returned from) every
   * notification of the initial state.
   */
  boolean hasSynced();

  /** Removes the handler; notifications still buffered for it are dropped. Idempotent. */
  @Override
  void close();
}
