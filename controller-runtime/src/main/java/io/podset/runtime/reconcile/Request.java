package io.podset.runtime.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Names the object to reconcile.
 *
 * @param namespace the object's namespace, or {@code null} for a cluster-scoped object
 * @param name the object's name, never blank
 */
public record Request(@Nullable String namespace, String name) {

  /**
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code name} is blank or {@code namespace} is empty
   */
  public Request {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank: '" + name + "'");
    }
    if (namespace != null && namespace.isEmpty()) {
      namespace = null;
    }
  }

  /** A request for the given object's namespace and name. */
  public static Request of(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(object.getMetadata(), "object.metadata");
    return new Request(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  /**
   * Parses a cache key, {@code namespace/name} or {@code name}.
   *
   * @throws IllegalArgumentException if the key has more than one slash or an empty part
   */
  public static Request parse(String key) {
    Objects.requireNonNull(key, "key");
    int slash = key.indexOf('/');
    if (slash < 0) {
      return new Request(null, key);
    }
    if (slash == 0 || slash == key.length() - 1 || key.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException(
          "key must be 'namespace/name' or 'name', got '" + key + "'");
    }
    return new Request(key.substring(0, slash), key.substring(slash + 1));
  }

  /** True when the object is cluster-scoped. */
  public boolean clusterScoped() {
    return namespace == null;
  }

  /** The cache key: {@code namespace/name}, or {@code name} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace == null ? name : namespace + "/" + name;
  }
}
