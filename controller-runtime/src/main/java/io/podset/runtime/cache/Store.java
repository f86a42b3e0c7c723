package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * A thread-safe read view of cached objects, keyed by {@link ObjectKey}.
 *
 * <p>Every method returns a consistent snapshot: a change is either fully visible or not at all.
 * Returned objects are shared with every other reader and are never mutated by the cache; callers
 * must not mutate them either (copy first). Returned lists are immutable snapshots.
 *
 * @param <T> the cached type
 */
public interface Store<T extends HasMetadata> {

  /** The object with this key, if cached. */
  Optional<T> get(ObjectKey key);

  /**
   * The object with this string key ({@code namespace/name} or {@code name}), if cached.
   *
   * @throws IllegalArgumentException if the key is malformed
   */
  Optional<T> getByKey(String key);

  /** All cached objects, in no particular order. */
  List<T> list();

  /** The keys of all cached objects, in their string form, in no particular order. */
  List<String> listKeys();

  /** The number of cached objects. */
  int size();
}
