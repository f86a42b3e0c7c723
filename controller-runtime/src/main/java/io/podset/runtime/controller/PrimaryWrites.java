package io.podset.runtime.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.ownership.Finalizers;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The writes a typed controller makes to its primary: the status (through {@code /status}, without
 * a resourceVersion precondition) and its finalizer (with one, so a stale copy never drops another
 * controller's finalizer).
 */
final class PrimaryWrites<P extends HasMetadata> {

  /** Conflicts met while changing the finalizers before the reconcile fails (and is retried). */
  private static final int CONFLICT_ATTEMPTS = 5;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ControllerResources<P> resources;

  PrimaryWrites(ControllerResources<P> resources) {
    this.resources = resources;
  }

  /**
   * Gives a custom resource without a status an empty one, when its status type has a no-argument
   * constructor, so a status change can set fields without checking for null.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static void initStatus(HasMetadata object) {
    if (!(object instanceof CustomResource resource) || resource.getStatus() != null) {
      return;
    }
    Class<?> statusType = statusType(object.getClass());
    if (statusType == null) {
      return;
    }
    try {
      Constructor<?> constructor = statusType.getDeclaredConstructor();
      constructor.setAccessible(true);
      resource.setStatus(constructor.newInstance());
    } catch (ReflectiveOperationException | RuntimeException e) {
      // no usable constructor: the status stays null for the change to create
    }
  }

  private static @Nullable Class<?> statusType(Class<?> type) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      Type parent = c.getGenericSuperclass();
      if (parent instanceof ParameterizedType p && p.getRawType() == CustomResource.class) {
        Type status = p.getActualTypeArguments()[1];
        return status instanceof Class<?> s && s != Void.class ? s : null;
      }
    }
    return null;
  }

  /**
   * Writes the status of {@code next} when it differs from that of {@code current}.
   *
   * @return the resourceVersion written; empty when nothing was written or the object is gone
   */
  Optional<String> writeStatus(P current, P next) {
    JsonNode before = tree(current).get("status");
    JsonNode after = tree(next).get("status");
    if (sameStatus(before, after)) {
      return Optional.empty();
    }
    return resources.statuses().replace(current, after).map(WrittenObject::resourceVersion);
  }

  private static boolean sameStatus(JsonNode before, JsonNode after) {
    boolean noBefore = before == null || before.isNull() || before.isEmpty();
    boolean noAfter = after == null || after.isNull() || after.isEmpty();
    return noBefore && noAfter || (before != null && before.equals(after));
  }

  /**
   * Adds {@code finalizer}, re-reading the object from the server after a conflict (someone else
   * wrote it since the cache saw it).
   *
   * @return the primary as written, or null when it is gone
   */
  @Nullable P addFinalizer(P primary, String finalizer) {
    return changeFinalizers(primary, next -> Finalizers.add(next, finalizer), primary);
  }

  /**
   * Removes {@code finalizer}, re-reading the object from the server after a conflict.
   *
   * @return the primary as written; null when the object or the finalizer is already gone
   */
  @Nullable P removeFinalizer(P primary, String finalizer) {
    return changeFinalizers(primary, next -> Finalizers.remove(next, finalizer), null);
  }

  /**
   * Writes {@code change} of the finalizers as a merge patch conditional on the resourceVersion (so
   * another controller's finalizer, added meanwhile, is never dropped), retrying on the live object
   * after a conflict. Returns the written object, or {@code unchanged} when {@code change} changes
   * nothing, or null when the object is gone.
   */
  private @Nullable P changeFinalizers(P primary, Predicate<P> change, @Nullable P unchanged) {
    P current = primary;
    for (int attempt = 1; ; attempt++) {
      P next = resources.serialization().clone(current);
      if (!change.test(next)) {
        return current == primary ? unchanged : current;
      }
      try {
        next.getMetadata().setResourceVersion(patchFinalizers(next).resourceVersion());
        return next;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return null;
        }
        if (e.getCode() != 409 || attempt == CONFLICT_ATTEMPTS) {
          throw e;
        }
      }
      current = live(primary);
      if (current == null
          || !current.getMetadata().getUid().equals(primary.getMetadata().getUid())) {
        return null;
      }
    }
  }

  /** A merge patch of the finalizers, conditional on the copy's resourceVersion. */
  private WrittenObject patchFinalizers(P next) {
    ObjectMeta meta = next.getMetadata();
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode metadata = patch.putObject("metadata");
    metadata.put("resourceVersion", meta.getResourceVersion());
    ArrayNode finalizers = metadata.putArray("finalizers");
    List<String> names = meta.getFinalizers() == null ? List.of() : meta.getFinalizers();
    names.forEach(finalizers::add);
    return resources
        .writer()
        .patch(
            resources.primaryType(),
            meta.getNamespace(),
            meta.getName(),
            null,
            PatchType.JSON_MERGE,
            patch.toString());
  }

  private @Nullable P live(P cached) {
    ObjectMeta meta = cached.getMetadata();
    return resources.livePrimary(meta.getNamespace(), meta.getName());
  }

  private JsonNode tree(P object) {
    return resources.serialization().convertValue(object, JsonNode.class);
  }
}
