package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;

/**
 * What an update stores: the resourceVersion precondition, the part of the object the write
 * addresses (the object without its status, or the status alone), immutable metadata kept, the
 * kind's update rules, defaults and validation, and {@code generation} bumped on spec changes.
 */
final class Updates {

  private Updates() {}

  /**
   * The object to store for an update of {@code current} with {@code body}, a fresh tree the caller
   * hands over ({@link ObjectWrites.Desired}): its parts become the stored object's, uncopied.
   */
  static ObjectNode prepare(
      ResourceType type, ObjectNode current, ObjectNode body, ObjectWrites.Target target) {
    String name = Json.name(current);
    String expected = Json.resourceVersion(body);
    if (expected != null
        && !expected.isEmpty()
        && !expected.equals(Json.resourceVersion(current))) {
      throw StatusError.conflict(type, name);
    }
    ObjectNode next;
    if (target == ObjectWrites.Target.STATUS) {
      next = current.deepCopy();
      JsonNode status = body.get("status");
      if (status == null) {
        next.remove("status");
      } else {
        next.set("status", status);
      }
    } else {
      next = body;
      if (type.statusSubresource()) {
        JsonNode status = current.get("status");
        if (status == null) {
          next.remove("status");
        } else {
          next.set("status", status.deepCopy());
        }
      }
      ObjectNode meta = Json.metadata(next);
      ObjectNode old = (ObjectNode) current.get("metadata");
      for (String immutable :
          List.of(
              "uid",
              "creationTimestamp",
              "deletionTimestamp",
              "deletionGracePeriodSeconds",
              "namespace",
              "generation")) {
        JsonNode value = old.get(immutable);
        if (value == null) {
          meta.remove(immutable);
        } else {
          meta.set(immutable, value);
        }
      }
    }
    Deletions.checkNoNewFinalizers(type, current, next);
    if (!next.path("metadata").has("managedFields")
        && current.path("metadata").has("managedFields")) {
      // As Kubernetes: a write that leaves managedFields out keeps them.
      Json.metadata(next).set("managedFields", current.path("metadata").path("managedFields"));
    }
    next.put("apiVersion", current.path("apiVersion").asText());
    Json.metadata(next).put("resourceVersion", Json.resourceVersion(current));
    if (target == ObjectWrites.Target.MAIN) {
      type.rules().prepareForUpdate(current, next);
    }
    type.rules().applyDefaults(next);
    validate(type, name, next, current);
    if (type.generation() && ObjectMeta.specChanged(current, next, type.statusSubresource())) {
      long generation = current.path("metadata").path("generation").asLong(0);
      Json.metadata(next).put("generation", generation + 1);
    }
    return next;
  }

  /**
   * 422 with every cause: the name (on create, {@code current} null), labels and the kind's own
   * rules (of an update of {@code current}, for rules that compare with the old object).
   */
  static void validate(ResourceType type, String name, ObjectNode object, ObjectNode current) {
    List<StatusError.Cause> causes = new ArrayList<>();
    if (current == null) {
      String problem = type.rules().nameRule().check(name);
      if (problem != null) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                "metadata.name",
                "Invalid value: \"" + name + "\": " + problem));
      }
    }
    ObjectMeta.validateLabels(object, causes);
    if (current == null) {
      type.rules().validate(object, causes);
    } else {
      type.rules().validateUpdate(current, object, causes);
    }
    if (!causes.isEmpty()) {
      throw StatusError.invalid(type, name, causes);
    }
  }
}
