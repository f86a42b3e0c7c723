package io.podset.runtime.informer;

/**
 * Receives the changes an informer applies to its cache.
 *
 * <p>Each handler is called from its own thread (or, added {@linkplain
 * SharedInformer#addInlineEventHandler inline}, from the informer's), one notification at a time,
 * in the order the cache changed; a slow handler delays only itself (an inline one: the informer
 * too), and an exception is logged and then ignored. Objects are shared with the cache: never
 * mutate them.
 *
 * @param <T> the informer's type
 */
public interface ResourceEventHandler<T> {

  /** An object entered the cache (also: the synthetic adds a late handler receives). */
  default void onAdd(T obj) {}

  /**
   * A cached object changed; on a resync (or a relist with the same resourceVersion) {@code oldObj}
   * and {@code newObj} have the same resourceVersion.
   */
  default void onUpdate(T oldObj, T newObj) {}

  /**
   * An object left the cache.
   *
   * @param obj its final state, or with {@code finalStateUnknown} its last known state (the
   *     deletion was found by a relist, not seen on a watch)
   */
  default void onDelete(T obj, boolean finalStateUnknown) {}
}
