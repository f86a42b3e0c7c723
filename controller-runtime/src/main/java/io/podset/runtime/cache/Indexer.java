package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * A {@link Store} with named secondary indices.
 *
 * <p>An index maps each object to zero or more indexed values through an {@link IndexFunction};
 * {@link #byIndex} returns the objects whose function yielded the value. Same thread-safety and
 * immutability guarantees as {@link Store}.
 *
 * @param <T> the cached type
 */
public interface Indexer<T extends HasMetadata> extends Store<T> {

  /**
   * The objects indexed under {@code indexedValue} in the index {@code indexName}.
   *
   * @throws IllegalArgumentException if no index has that name
   */
  List<T> byIndex(String indexName, String indexedValue);

  /**
   * The keys of the objects indexed under {@code indexedValue} in the index {@code indexName}.
   *
   * @throws IllegalArgumentException if no index has that name
   */
  List<String> indexKeys(String indexName, String indexedValue);

  /** The names of the indices this indexer maintains. */
  List<String> indexNames();
}
