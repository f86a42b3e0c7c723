package io.podset.runtime.ownership;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Adds, removes and tests finalizers on an object about to be written. No API call is made. */
public final class Finalizers {

  private Finalizers() {}

  /**
   * Adds {@code finalizer} if absent.
   *
   * @return true when the object changed
   * @throws IllegalArgumentException if {@code finalizer} is not a qualified name
   */
  public static boolean add(HasMetadata object, String finalizer) {
    validate(finalizer);
    ObjectMeta meta = metadata(object);
    List<String> finalizers =
        meta.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(meta.getFinalizers());
    if (finalizers.contains(finalizer)) {
      return false;
    }
    finalizers.add(finalizer);
    meta.setFinalizers(finalizers);
    return true;
  }

  /**
   * Removes every occurrence of {@code finalizer}.
   *
   * @return true when the object changed
   */
  public static boolean remove(HasMetadata object, String finalizer) {
    Objects.requireNonNull(finalizer, "finalizer");
    ObjectMeta meta = metadata(object);
    if (meta.getFinalizers() == null) {
      return false;
    }
    List<String> finalizers = new ArrayList<>(meta.getFinalizers());
    boolean changed = finalizers.removeIf(finalizer::equals);
    if (changed) {
      meta.setFinalizers(finalizers);
    }
    return changed;
  }

  /** True when the object carries {@code finalizer}. */
  public static boolean has(HasMetadata object, String finalizer) {
    Objects.requireNonNull(finalizer, "finalizer");
    List<String> finalizers = metadata(object).getFinalizers();
    return finalizers != null && finalizers.contains(finalizer);
  }

  /** True when deletion of the object was requested (its {@code deletionTimestamp} is set). */
  public static boolean isBeingDeleted(HasMetadata object) {
    return metadata(object).getDeletionTimestamp() != null;
  }

  private static void validate(String finalizer) {
    Objects.requireNonNull(finalizer, "finalizer");
    if (!HasMetadata.validateFinalizer(finalizer)) {
      throw new IllegalArgumentException(
          "finalizer must be a qualified name like 'example.com/cleanup', got '" + finalizer + "'");
    }
  }

  private static ObjectMeta metadata(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    if (object.getMetadata() == null) {
      object.setMetadata(new ObjectMeta());
    }
    return object.getMetadata();
  }
}
