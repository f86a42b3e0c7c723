package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.function.Function;

/**
 * Computes the values under which an object is indexed; an empty list leaves it out of the index.
 *
 * <p>Must be a pure function of the object: it is called by the cache's writer thread while the
 * cache is locked, on every add, update and delete.
 *
 * @param <T> the indexed type
 */
@FunctionalInterface
public interface IndexFunction<T extends HasMetadata> extends Function<T, List<String>> {}
