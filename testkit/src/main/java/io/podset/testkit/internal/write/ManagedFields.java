package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code Update} entries of {@code managedFields} that ordinary writes (create, update, patch)
 * record, as the API server's field manager does: the writer's manager ({@code fieldManager}, else
 * the User-Agent up to its first {@code /}) takes ownership of every field the write set or
 * changed, other managers lose those fields, and removed fields leave every entry; entries left
 * without fields are dropped. Writes to {@code /status} keep a separate entry with {@code
 * subresource: status} over status fields only; main writes track everything but status. A write
 * that sends managedFields different from the stored ones replaces them as sent, as on a real
 * server.
 */
final class ManagedFields {

  private ManagedFields() {}

  /** The manager of an ordinary write. */
  static String manager(ApiRequest request) {
    String manager = request.param("fieldManager");
    if (manager != null && !manager.isEmpty()) {
      return manager;
    }
    String agent = request.header("user-agent");
    if (agent == null || agent.isEmpty()) {
      return "unknown";
    }
    int slash = agent.indexOf('/');
    return slash < 0 ? agent : agent.substring(0, slash);
  }

  /**
   * Records in {@code next} (mutable) that {@code manager} wrote it over {@code current} (null for
   * a create).
   */
  static void recordUpdate(
      ResourceType type,
      ObjectNode current,
      ObjectNode next,
      String manager,
      boolean status,
      Instant now) {
    JsonNode stored = current == null ? null : current.path("metadata").get("managedFields");
    JsonNode sent = next.path("metadata").get("managedFields");
    if (current != null && sent != null && !sent.equals(stored)) {
      return;
    }
    JsonNode base = current == null ? sent : stored;
    Map<List<String>, JsonNode> after = FieldLeaves.of(type, next, status);
    Map<List<String>, JsonNode> before =
        current == null ? Map.of() : FieldLeaves.of(type, current, status);
    Set<List<String>> changed = new LinkedHashSet<>();
    for (Map.Entry<List<String>, JsonNode> field : after.entrySet()) {
      JsonNode old = before.get(field.getKey());
      if (old == null || !old.equals(field.getValue())) {
        changed.add(field.getKey());
      }
    }
    Set<List<String>> removed = new LinkedHashSet<>(before.keySet());
    removed.removeAll(after.keySet());
    String subresource = status ? "status" : "";
    ObjectNode mine = null;
    List<ObjectNode> kept = new ArrayList<>();
    for (JsonNode existing : base == null ? List.<JsonNode>of() : base) {
      boolean same =
          existing.path("manager").asText().equals(manager)
              && existing.path("operation").asText().equals("Update")
              && existing.path("subresource").asText("").equals(subresource);
      JsonNode fields = existing.path("fieldsV1");
      if (existing instanceof ObjectNode unchanged
          && FieldPaths.canonical(fields)
          && !FieldPaths.ownsAny(fields, removed)
          && (same ? FieldPaths.ownsAll(fields, changed) : !FieldPaths.ownsAny(fields, changed))) {
        // An entry whose fields the write leaves as they are: not parsed and rendered again into
        // the same fields. Another manager's is kept as it is; the writer's own is a new entry
        // over the same fields, whose time is set below.
        ObjectNode entry = unchanged;
        if (same) {
          entry = Json.object();
          for (Map.Entry<String, JsonNode> field : unchanged.properties()) {
            entry.set(field.getKey(), field.getValue());
          }
          mine = entry;
        }
        kept.add(entry);
        continue;
      }
      ObjectNode entry = (ObjectNode) existing.deepCopy();
      Set<List<String>> owned = FieldPaths.parse(fields);
      owned.removeAll(removed);
      if (same) {
        owned.addAll(changed);
        mine = entry;
      } else {
        owned.removeAll(changed);
      }
      if (!owned.isEmpty()) {
        entry.set("fieldsV1", FieldPaths.render(owned));
        kept.add(entry);
      }
    }
    if (mine == null && !changed.isEmpty()) {
      mine = Json.object();
      mine.put("manager", manager);
      mine.put("operation", "Update");
      mine.put("apiVersion", type.apiVersion());
      mine.put("fieldsType", "FieldsV1");
      mine.set("fieldsV1", FieldPaths.render(changed));
      if (status) {
        mine.put("subresource", "status");
      }
      kept.add(mine);
    }
    if (mine != null && !changed.isEmpty()) {
      mine.put("time", ObjectMeta.timestamp(now));
      mine.put("apiVersion", type.apiVersion());
    }
    if (kept.isEmpty()) {
      Json.metadata(next).remove("managedFields");
    } else {
      ArrayNode list = Json.metadata(next).putArray("managedFields");
      sorted(kept).forEach(list::add);
    }
  }

  /** Entries in the API server's order: Apply before Update, then by time, then by manager. */
  static List<ObjectNode> sorted(List<ObjectNode> entries) {
    List<ObjectNode> copy = new ArrayList<>(entries);
    copy.sort(
        Comparator.<ObjectNode, String>comparing(e -> e.path("operation").asText())
            .thenComparing(e -> e.path("time").asText())
            .thenComparing(e -> e.path("manager").asText()));
    return copy;
  }
}
