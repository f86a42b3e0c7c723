package io.podset.runtime.informer.transport;

/** An open watch. */
@FunctionalInterface
public interface WatchHandle extends AutoCloseable {

  /** Stops the watch; idempotent. No event and no {@code onClose} is delivered afterwards. */
  @Override
  void close();
}
