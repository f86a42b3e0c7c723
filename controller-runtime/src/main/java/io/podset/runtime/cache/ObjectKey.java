package io.podset.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The identity of an object in a cache: its namespace ({@code null} when cluster-scoped) and name.
 *
 * <p>The string form is {@code namespace/name}, or {@code name} for a cluster-scoped object, as in
 * client-go; {@link #parse(String)} reads it back.
 *
 * @param namespace the namespace, or {@code null} for a cluster-scoped object; never empty
 * @param name the object's name; never null or empty
 */
public record ObjectKey(@Nullable String namespace, String name) {

  /**
   * Validates the components.
   *
   * @throws IllegalArgumentException if {@code name} is null or empty, if {@code namespace} is
   *     empty, or if either contains a {@code /}
   */
  public ObjectKey {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name must not be null or empty: " + name);
    }
    if (name.indexOf('/') >= 0) {
      throw new IllegalArgumentException("name must not contain '/': " + name);
    }
    if (namespace != null && (namespace.isEmpty() || namespace.indexOf('/') >= 0)) {
      throw new IllegalArgumentException(
          "namespace must be null or a non-empty string without '/': '" + namespace + "'");
    }
  }

  /**
   * The key of an object, from its metadata; an empty namespace counts as cluster-scoped.
   *
   * @throws NullPointerException if {@code obj} or its metadata is null
   * @throws IllegalArgumentException if the object has no name
   */
  public static ObjectKey of(HasMetadata obj) {
    Objects.requireNonNull(obj, "obj");
    ObjectMeta meta = Objects.requireNonNull(obj.getMetadata(), "obj.metadata");
    String namespace = meta.getNamespace();
    return new ObjectKey(
        namespace == null || namespace.isEmpty() ? null : namespace, meta.getName());
  }

  /** A namespaced key. */
  public static ObjectKey of(String namespace, String name) {
    return new ObjectKey(namespace, name);
  }

  /**
   * Reads {@code namespace/name} or {@code name}.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalArgumentException if the key is empty, has more than one {@code /}, or an empty
   *     part
   */
  public static ObjectKey parse(String key) {
    Objects.requireNonNull(key, "key");
    int slash = key.indexOf('/');
    if (slash < 0) {
      return new ObjectKey(null, key);
    }
    if (key.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException("key must be 'namespace/name' or 'name': " + key);
    }
    if (slash == 0) {
      throw new IllegalArgumentException("key has an empty namespace: " + key);
    }
    return new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
  }

  /** Whether this key names a cluster-scoped object. */
  public boolean clusterScoped() {
    return namespace == null;
  }

  /** {@code namespace/name}, or {@code name} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace == null ? name : namespace + "/" + name;
  }
}
