package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The writer's side of an {@link Indexer}: one thread (an informer's processing thread) applies
 * changes; any number of threads read concurrently.
 *
 * <p>Objects handed to the writer methods become shared: neither the caller nor the cache may
 * mutate them afterwards. Readers should be given {@link #readOnlyView()}, not this object.
 *
 * @param <T> the cached type
 */
public interface MutableIndexer<T extends HasMetadata> extends Indexer<T> {

  /** A new, empty thread-safe indexer without indices. */
  static <T extends HasMetadata> MutableIndexer<T> create() {
    return new DefaultIndexer<>();
  }

  /**
   * Adds or replaces the object under its key and re-indexes it.
   *
   * @return the object previously cached under the key, if any
   * @throws NullPointerException if {@code obj} is null
   */
  Optional<T> upsert(T obj);

  /**
   * Removes the object with this key.
   *
   * @return the removed object, if any
   */
  Optional<T> delete(ObjectKey key);

  /** Replaces the whole content with {@code objects} and rebuilds the indices. */
  void replace(Collection<? extends T> objects);

  /**
   * Adds named indices and indexes the objects already cached.
   *
   * @throws IllegalArgumentException if a name is already in use
   */
  void addIndexers(Map<String, ? extends IndexFunction<T>> indexers);

  /** A view of this indexer that has no writer methods, for handing out to readers. */
  Indexer<T> readOnlyView();
}
