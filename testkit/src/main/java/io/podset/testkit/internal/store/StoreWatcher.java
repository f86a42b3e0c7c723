package io.podset.testkit.internal.store;

/**
 * An open watch as the store sees it ({@link ObjectStore#watch}): receives the changes of one
 * resource, under the store lock, in revision order; must not block.
 */
public interface StoreWatcher {
  void event(StoredEvent event);

  /** Called once after the synthetic initial events (watches started without a revision). */
  default void initialEventsEnd(long resourceVersion) {}

  /** A periodic progress notification: every change up to the revision was delivered. */
  default void bookmark(long resourceVersion) {}

  /** Ends the watch from the server side (called without the store lock). */
  default void terminate() {}
}
