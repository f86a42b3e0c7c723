package io.podset.runtime.informer;

import io.podset.runtime.event.Event;

/**
 * Receives the changes an informer applies to its cache, as {@link Event}s: {@link Event.Added}
 * when an object entered the cache (also: the synthetic adds a late handler receives), {@link
 * Event.Updated} when a cached object changed (on a resync, or a relist with the same
 * resourceVersion, both states have the same resourceVersion), {@link Event.Deleted} when it left
 * the cache (with {@code finalStateUnknown}: the deletion was found by a relist, not seen on a
 * watch, and the object is its last known state).
 *
 * <p>Each handler is called from its own thread (or, added {@linkplain
 * SharedInformer#addInlineEventHandler inline}, from the informer's), one event at a time, in the
 * order the cache changed; a slow handler delays only itself (an inline one: the informer too), and
 * an exception is logged and then ignored. Objects are shared with the cache: never mutate them.
 *
 * @param <T> the informer's type
 */
@FunctionalInterface
public interface ResourceEventHandler<T> {

  /** One change of the cache. */
  void onEvent(Event<T> event);
}
