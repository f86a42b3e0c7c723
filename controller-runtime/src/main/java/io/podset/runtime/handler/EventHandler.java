package io.podset.runtime.handler;

import io.podset.runtime.event.Event;
import io.podset.runtime.reconcile.Request;
import java.util.Collection;

/**
 * Maps an event on a watched object to the requests to reconcile. Called on the informer's handler
 * thread: implementations must be fast and must not block or mutate the object.
 *
 * @param <T> the watched type
 */
@FunctionalInterface
public interface EventHandler<T> {

  /** The requests to enqueue for {@code event}; empty for none. Duplicates are harmless. */
  Collection<Request> requestsFor(Event<T> event);
}
