/**
 * The local, indexed cache that informers keep of API objects.
 *
 * <p>A {@link io.podset.runtime.cache.Store} is a thread-safe read view keyed by {@link
 * io.podset.runtime.cache.ObjectKey} ({@code namespace/name}, or {@code name} for cluster-scoped
 * objects). An {@link io.podset.runtime.cache.Indexer} adds named secondary indices computed by
 * {@link io.podset.runtime.cache.IndexFunction}s; {@link io.podset.runtime.cache.Indexers} has the
 * common ones (by namespace, by controller owner UID).
 *
 * <p>Each cache has exactly one writer (the informer's processing thread) behind a {@link
 * io.podset.runtime.cache.MutableIndexer}; readers never see a partially applied change and receive
 * objects that nobody mutates afterwards. Callers must not mutate returned objects either: copy
 * before editing.
 */
@NullMarked
package io.podset.runtime.cache;

import org.jspecify.annotations.NullMarked;
