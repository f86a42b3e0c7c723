package io.podset.runtime.predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.podset.runtime.event.Event;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Stock event filters, usable on any watched type. Each passes additions and deletions and judges
 * updates by comparing the old and new object; compose them with {@link Predicate#and}, {@link
 * Predicate#or} and {@link Predicate#negate}.
 *
 * <p>An update whose {@code metadata.uid} changed always passes: the object was deleted and created
 * again under the same name while the watch was down, and the informer's relist reports the pair as
 * one update. The new object may well have the same generation, labels and annotations as the old
 * one (a re-created object starts at generation 1), yet it is new work.
 */
public final class Predicates {

  private Predicates() {}

  /** Passes every event. */
  public static Predicate<Event<? extends HasMetadata>> all() {
    return event -> true;
  }

  /**
   * Passes updates whose {@code metadata.generation} changed: spec changes of resources with a
   * status subresource, not status or metadata-only writes.
   */
  public static Predicate<Event<? extends HasMetadata>> generationChanged() {
    return onUpdate(ObjectMeta::getGeneration);
  }

  /** Passes updates whose labels changed. */
  public static Predicate<Event<? extends HasMetadata>> labelsChanged() {
    return onUpdate(meta -> normalized(meta.getLabels()));
  }

  /** Passes updates whose annotations changed. */
  public static Predicate<Event<? extends HasMetadata>> annotationsChanged() {
    return onUpdate(meta -> normalized(meta.getAnnotations()));
  }

  /** Passes updates whose resourceVersion changed, dropping periodic resyncs. */
  public static Predicate<Event<? extends HasMetadata>> resourceVersionChanged() {
    return onUpdate(ObjectMeta::getResourceVersion);
  }

  /**
   * Passes every event except an update that changed only the status: an update passes when it is a
   * resync (same resourceVersion), or its generation, labels, annotations, finalizers, owner
   * references or deletion timestamp changed. Objects without a generation (kinds without a spec
   * and status split) pass every update. The typed controllers' default for their primary.
   */
  public static Predicate<Event<? extends HasMetadata>> notStatusOnly() {
    return event -> {
      if (!(event instanceof Event.Updated<? extends HasMetadata> update)) {
        return true;
      }
      ObjectMeta before = update.oldObject().getMetadata();
      ObjectMeta after = update.object().getMetadata();
      if (before == null || after == null || after.getGeneration() == null) {
        return true;
      }
      return replaced(update.oldObject(), update.object())
          || Objects.equals(before.getResourceVersion(), after.getResourceVersion())
          || !Objects.equals(before.getGeneration(), after.getGeneration())
          || !normalized(before.getLabels()).equals(normalized(after.getLabels()))
          || !normalized(before.getAnnotations()).equals(normalized(after.getAnnotations()))
          || !Objects.equals(listOf(before.getFinalizers()), listOf(after.getFinalizers()))
          || !Objects.equals(
              listOf(before.getOwnerReferences()), listOf(after.getOwnerReferences()))
          || !Objects.equals(before.getDeletionTimestamp(), after.getDeletionTimestamp());
    };
  }

  /** Passes only events whose object carries {@code label} with {@code value}. */
  public static Predicate<Event<? extends HasMetadata>> hasLabel(String label, String value) {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(value, "value");
    return event -> {
      ObjectMeta meta = event.object().getMetadata();
      return meta != null && meta.getLabels() != null && value.equals(meta.getLabels().get(label));
    };
  }

  private static Predicate<Event<? extends HasMetadata>> onUpdate(
      Function<ObjectMeta, Object> field) {
    return event -> {
      if (!(event instanceof Event.Updated<? extends HasMetadata> update)) {
        return true;
      }
      return replaced(update.oldObject(), update.object())
          || !Objects.equals(read(update.oldObject(), field), read(update.object(), field));
    };
  }

  /**
   * Whether {@code after} is another object than {@code before} under the same name: their uids
   * differ (deleted and created again between two observations).
   */
  public static boolean replaced(HasMetadata before, HasMetadata after) {
    Object beforeUid = read(before, ObjectMeta::getUid);
    Object afterUid = read(after, ObjectMeta::getUid);
    return beforeUid != null && afterUid != null && !beforeUid.equals(afterUid);
  }

  private static @Nullable Object read(
      HasMetadata object, Function<ObjectMeta, @Nullable Object> field) {
    return object.getMetadata() == null ? null : field.apply(object.getMetadata());
  }

  private static List<?> listOf(List<?> list) {
    return list == null ? List.of() : list;
  }

  private static Map<String, String> normalized(Map<String, String> map) {
    return map == null || map.isEmpty() ? Map.of() : map;
  }
}
