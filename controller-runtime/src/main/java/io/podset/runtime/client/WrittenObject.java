package io.podset.runtime.client;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the API server answered a write with, as far as a controller needs it.
 *
 * @param namespace the object's namespace, or null for a cluster-scoped object
 * @param name the object's name (the generated one after a create with {@code generateName})
 * @param uid the object's uid
 * @param resourceVersion the resourceVersion of the write
 */
public record WrittenObject(
    @Nullable String namespace, String name, String uid, String resourceVersion) {

  /**
   * @throws NullPointerException if the name, uid or resourceVersion is null
   */
  public WrittenObject {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }
}
