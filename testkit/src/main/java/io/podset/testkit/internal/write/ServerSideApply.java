package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Server-side apply, simplified: the applied configuration is merged into the object (strategic
 * merge for built-in kinds, JSON merge for custom resources), the manager's {@code Apply} entry in
 * {@code managedFields} records the leaf fields it applied (FieldsV1), and a changed value of a
 * field that another manager's entry owns is a conflict unless {@code force} (which takes the field
 * from the other manager).
 *
 * <p>A field the manager applied before and leaves out now is removed unless another manager owns
 * it; ordinary writes record {@code Update} entries ({@link ManagedFields}), so applying a value
 * another writer changed conflicts with it. Not modelled: list and map types from OpenAPI schemas
 * ({@code x-kubernetes-list-type}; custom resource lists are atomic), and field-level ownership
 * inside atomic lists.
 */
final class ServerSideApply {

  private ServerSideApply() {}

  /**
   * The object after {@code manager} applies {@code config} to {@code current} (null: create).
   *
   * @throws StatusError 409 listing the conflicts, 400 for a configuration without apiVersion/kind
   */
  static ObjectNode apply(
      ResourceType type,
      ObjectNode current,
      ObjectNode config,
      String manager,
      boolean force,
      Instant now) {
    if (config.path("apiVersion").asText("").isEmpty()
        || config.path("kind").asText("").isEmpty()) {
      throw StatusError.badRequest(
          "apiVersion and kind must be set in an apply configuration (application/apply-patch)");
    }
    Set<List<String>> applied = FieldPaths.fields(type, config);
    // The current entries as stored (read-only: an entry is copied before it changes) and the
    // fields each owns, parsed once.
    List<ObjectNode> entries = new ArrayList<>();
    List<Set<List<String>>> owners = new ArrayList<>();
    if (current != null) {
      for (JsonNode e : current.path("metadata").path("managedFields")) {
        entries.add((ObjectNode) e);
        owners.add(FieldPaths.parse(e.path("fieldsV1")));
      }
    }
    Map<String, List<String>> conflicts = new LinkedHashMap<>();
    if (current != null) {
      for (int i = 0; i < entries.size(); i++) {
        ObjectNode entry = entries.get(i);
        String owner = entry.path("manager").asText();
        if (owner.equals(manager) && "Apply".equals(entry.path("operation").asText())) {
          continue;
        }
        Set<List<String>> owned = owners.get(i);
        Set<List<String>> lost = new LinkedHashSet<>();
        String who = "\"" + owner + "\" using " + entry.path("apiVersion").asText();
        for (List<String> field : applied) {
          if (owned.contains(field)
              && !FieldPaths.valueAt(current, field).equals(FieldPaths.valueAt(config, field))) {
            conflicts.computeIfAbsent(who, k -> new ArrayList<>()).add(FieldPaths.display(field));
            lost.add(field);
          }
        }
        if (force && !lost.isEmpty()) {
          owned.removeAll(lost);
          ObjectNode changed = entry.deepCopy();
          changed.set("fieldsV1", FieldPaths.render(owned));
          entries.set(i, changed);
        }
      }
    }
    if (!conflicts.isEmpty() && !force) {
      throw conflict(type, Json.name(config), conflicts);
    }
    ObjectNode cleaned = config.deepCopy();
    ObjectNode configMeta = Json.metadata(cleaned);
    configMeta.remove("managedFields");
    ObjectNode result;
    if (current == null) {
      result = cleaned;
    } else {
      JsonNode merged =
          type.custom()
              ? Patches.mergePatch(current, cleaned)
              : StrategicMerge.apply(type.kind(), current, cleaned);
      result = (ObjectNode) merged;
    }
    List<ObjectNode> kept = new ArrayList<>();
    Set<List<String>> before = new LinkedHashSet<>();
    Set<List<String>> others = new LinkedHashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      ObjectNode entry = entries.get(i);
      boolean mine =
          entry.path("manager").asText().equals(manager)
              && "Apply".equals(entry.path("operation").asText());
      Set<List<String>> owned = owners.get(i);
      if (mine) {
        before.addAll(owned);
      } else {
        others.addAll(owned);
        if (!owned.isEmpty()) {
          kept.add(entry);
        }
      }
    }
    // A field this manager applied before, leaves out now, and nobody else owns, goes.
    for (List<String> field : before) {
      if (!applied.contains(field) && !others.contains(field)) {
        FieldPaths.remove(result, field);
      }
    }
    ObjectNode entry = Json.object();
    entry.put("manager", manager);
    entry.put("operation", "Apply");
    entry.put("apiVersion", type.apiVersion());
    entry.put("time", ObjectMeta.timestamp(now));
    entry.put("fieldsType", "FieldsV1");
    entry.set("fieldsV1", FieldPaths.render(applied));
    kept.add(entry);
    ArrayNode managed = Json.metadata(result).putArray("managedFields");
    ManagedFields.sorted(kept).forEach(managed::add);
    return result;
  }

  private static StatusError conflict(
      ResourceType type, String name, Map<String, List<String>> conflicts) {
    int count = conflicts.values().stream().mapToInt(List::size).sum();
    StringBuilder message =
        new StringBuilder("Apply failed with ")
            .append(count)
            .append(count == 1 ? " conflict: " : " conflicts: ");
    ObjectNode details = StatusError.details(name, type.group(), type.plural());
    ArrayNode causes = details.putArray("causes");
    boolean first = true;
    for (Map.Entry<String, List<String>> e : conflicts.entrySet()) {
      for (String field : e.getValue()) {
        message
            .append(first ? "" : "; ")
            .append("conflict with ")
            .append(e.getKey())
            .append(": ")
            .append(field);
        first = false;
        ObjectNode cause = causes.addObject();
        cause.put("reason", "FieldManagerConflict");
        cause.put("message", "conflict with " + e.getKey());
        cause.put("field", field);
      }
    }
    return new StatusError(409, "Conflict", message.toString(), details);
  }
}
