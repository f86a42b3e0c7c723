package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a DELETE does to one object, as Kubernetes' registry does it: preconditions, graceful
 * deletion of pods bound to a node ({@code deletionTimestamp} in the future, {@code
 * deletionGracePeriodSeconds}), and finalizers that keep an object until they are removed.
 *
 * <p>An object marked for deletion is removed by the write that leaves it with no finalizers and a
 * grace period of zero (the kubelet's final delete of a pod, or the update that removes the last
 * finalizer).
 */
public final class Deletions {

  /** The finalizer that keeps an owner until its blocking dependents are gone. */
  public static final String FOREGROUND = "foregroundDeletion";

  /** The finalizer that keeps an owner until its dependents lost their references to it. */
  public static final String ORPHAN = "orphan";

  private Deletions() {}

  /**
   * The propagation of a DELETE that names none: batch/v1 Jobs and ReplicationControllers orphan
   * their pods, as they did before garbage collection existed (kubectl and most clients ask for
   * Background explicitly); every other kind deletes its dependents in the background.
   */
  static String defaultPolicy(ResourceType type) {
    boolean orphans =
        !type.custom()
            && (type.group().equals("batch") && type.plural().equals("jobs")
                || type.group().isEmpty() && type.plural().equals("replicationcontrollers"));
    return orphans ? "Orphan" : "Background";
  }

  /**
   * The next state of {@code current} for a DELETE: null to remove it now, {@code current} for no
   * change, or a copy marked for deletion.
   *
   * @throws StatusError 409 when a precondition fails
   */
  public static ObjectNode next(
      ResourceType type, ObjectNode current, DeleteOptions options, Instant now) {
    checkPreconditions(type, current, options);
    long grace = gracePeriod(type, current, options);
    ObjectNode meta = (ObjectNode) current.get("metadata");
    boolean deleting = meta.hasNonNull("deletionTimestamp");
    Set<String> finalizers = finalizers(current);
    finalizers.addAll(namespaceFinalizers(current));
    String policy =
        options.propagationPolicy() != null ? options.propagationPolicy() : defaultPolicy(type);
    String added = null;
    if (!deleting && "Foreground".equals(policy)) {
      added = FOREGROUND;
    } else if (!deleting && "Orphan".equals(policy)) {
      added = ORPHAN;
    }
    if (grace == 0 && finalizers.isEmpty() && added == null) {
      return null;
    }
    ObjectNode next = current.deepCopy();
    ObjectNode nextMeta = Json.metadata(next);
    if (added != null && !finalizers.contains(added)) {
      ArrayNode array =
          nextMeta.get("finalizers") instanceof ArrayNode existing
              ? existing
              : nextMeta.putArray("finalizers");
      array.add(added);
    }
    if (isNamespace(current)) {
      Json.child(next, "status").put("phase", "Terminating");
    }
    if (!deleting) {
      nextMeta.put("deletionTimestamp", ObjectMeta.timestamp(now.plusSeconds(grace)));
      nextMeta.put("deletionGracePeriodSeconds", grace);
      return next;
    }
    long existing = meta.path("deletionGracePeriodSeconds").asLong(0);
    if (grace < existing) {
      nextMeta.put("deletionTimestamp", ObjectMeta.timestamp(now.plusSeconds(grace)));
      nextMeta.put("deletionGracePeriodSeconds", grace);
      return finished(next) ? null : next;
    }
    return current;
  }

  /**
   * The grace period of a DELETE: for a pod bound to a node and not yet terminated, the requested
   * period or its {@code terminationGracePeriodSeconds} (a negative request counts as 1 s); zero
   * for every other object.
   */
  static long gracePeriod(ResourceType type, ObjectNode current, DeleteOptions options) {
    if (type.custom() || !type.group().isEmpty() || !type.plural().equals("pods")) {
      return 0;
    }
    String node = Json.text(current, "spec.nodeName");
    String phase = Json.text(current, "status.phase");
    if (node == null || node.isEmpty() || "Failed".equals(phase) || "Succeeded".equals(phase)) {
      return 0;
    }
    long grace =
        options.gracePeriodSeconds() != null
            ? options.gracePeriodSeconds()
            : current.path("spec").path("terminationGracePeriodSeconds").asLong(30);
    return grace < 0 ? 1 : grace;
  }

  /** Whether an object marked for deletion has nothing left that keeps it. */
  public static boolean finished(ObjectNode object) {
    JsonNode meta = object.path("metadata");
    return meta.hasNonNull("deletionTimestamp")
        && meta.path("deletionGracePeriodSeconds").asLong(0) == 0
        && finalizers(object).isEmpty()
        && namespaceFinalizers(object).isEmpty();
  }

  static boolean isNamespace(JsonNode object) {
    return "Namespace".equals(object.path("kind").asText())
        && "v1".equals(object.path("apiVersion").asText());
  }

  /** A namespace's {@code spec.finalizers}; empty for other objects. */
  static Set<String> namespaceFinalizers(JsonNode object) {
    Set<String> result = new LinkedHashSet<>();
    if (isNamespace(object)) {
      for (JsonNode f : object.path("spec").path("finalizers")) {
        result.add(f.asText());
      }
    }
    return result;
  }

  /** Whether the object carries a {@code deletionTimestamp}. */
  public static boolean deleting(JsonNode object) {
    return object.path("metadata").hasNonNull("deletionTimestamp");
  }

  public static Set<String> finalizers(JsonNode object) {
    Set<String> result = new LinkedHashSet<>();
    for (JsonNode f : object.path("metadata").path("finalizers")) {
      result.add(f.asText());
    }
    return result;
  }

  /**
   * Rejects an update that adds a finalizer to an object being deleted, as Kubernetes does.
   *
   * @throws StatusError 422 naming the new finalizers
   */
  static void checkNoNewFinalizers(ResourceType type, ObjectNode current, ObjectNode next) {
    if (!deleting(current)) {
      return;
    }
    Set<String> added = finalizers(next);
    added.removeAll(finalizers(current));
    if (!added.isEmpty()) {
      throw StatusError.invalid(
          type,
          Json.name(current),
          List.of(
              new StatusError.Cause(
                  "FieldValueForbidden",
                  "metadata.finalizers",
                  "Forbidden: no new finalizers can be added if the object is being deleted,"
                      + " found new finalizers "
                      + added)));
    }
  }

  private static void checkPreconditions(
      ResourceType type, ObjectNode current, DeleteOptions options) {
    String actualUid = Json.text(current, "metadata.uid");
    if (options.uid() != null && !options.uid().equals(actualUid)) {
      throw new StatusError(
          409,
          "Conflict",
          "Precondition failed: UID in precondition: "
              + options.uid()
              + ", UID in object meta: "
              + actualUid,
          StatusError.details(Json.name(current), type.group(), type.plural()));
    }
    String actualRv = Json.resourceVersion(current);
    if (options.resourceVersion() != null && !options.resourceVersion().equals(actualRv)) {
      throw new StatusError(
          409,
          "Conflict",
          "Precondition failed: ResourceVersion in precondition: "
              + options.resourceVersion()
              + ", ResourceVersion in object meta: "
              + actualRv,
          StatusError.details(Json.name(current), type.group(), type.plural()));
    }
  }
}
