package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The leaf fields of an object as FieldsV1 paths ({@link FieldPaths}), each with the value {@link
 * FieldPaths#valueAt} finds at it, in one walk: the field manager compares every field of the old
 * and the new object on each write, and looking each path up again (a keyed list element's key
 * parsed from its JSON at every step) cost more than the rest of the write.
 *
 * <p>Paths come in document order, each once. A value is what {@code valueAt} gives, also where the
 * two differ from the node the walk stands on: an element of a keyed list whose key an earlier
 * element has too is looked up as the first one ({@code valueAt} finds the first match), as is a
 * key that does not survive its JSON form (a long read back as an int).
 */
final class FieldLeaves {

  private static final Set<String> MERGE_LISTS =
      Set.of(
          "containers",
          "initContainers",
          "ephemeralContainers",
          "volumes",
          "env",
          "imagePullSecrets",
          "ports",
          "volumeMounts",
          "volumeDevices",
          "conditions",
          "ownerReferences",
          "hostAliases");

  private final ResourceType type;
  // The path of the node the walk stands on.
  private final List<String> path = new ArrayList<>();
  private final Map<List<String>, JsonNode> out = new LinkedHashMap<>();

  private FieldLeaves(ResourceType type) {
    this.type = type;
  }

  /**
   * The leaf fields of {@code object} with their values: its status only, or everything else
   * (labels, annotations and finalizers of its metadata).
   */
  static Map<List<String>, JsonNode> of(ResourceType type, ObjectNode object, boolean status) {
    FieldLeaves walk = new FieldLeaves(type);
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      String field = e.getKey();
      if (field.equals("apiVersion") || field.equals("kind") || field.equals("status") != status) {
        continue;
      }
      if (field.equals("metadata")) {
        walk.metadata(object, e.getValue());
        continue;
      }
      walk.path.add("f:" + field);
      walk.collect(field, e.getValue(), e.getValue());
      walk.path.remove(walk.path.size() - 1);
    }
    return walk.out;
  }

  private void metadata(ObjectNode object, JsonNode metadata) {
    for (String part : List.of("labels", "annotations")) {
      for (Map.Entry<String, JsonNode> m : metadata.path(part).properties()) {
        out.putIfAbsent(List.of("f:metadata", "f:" + part, "f:" + m.getKey()), m.getValue());
      }
    }
    for (JsonNode f : metadata.path("finalizers")) {
      List<String> leaf = List.of("f:metadata", "f:finalizers", "v:" + FieldPaths.text(f));
      out.computeIfAbsent(leaf, p -> FieldPaths.valueAt(object, p));
    }
  }

  /**
   * Collects the leaves under {@code value} (at {@link #path}); {@code shadow} is what {@code
   * valueAt} finds at that path (mostly {@code value} itself).
   */
  private void collect(String field, JsonNode value, JsonNode shadow) {
    if (value.isObject() && !value.isEmpty()) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        JsonNode child = e.getValue();
        path.add("f:" + e.getKey());
        collect(e.getKey(), child, shadow == value ? child : shadow.path(e.getKey()));
        path.remove(path.size() - 1);
      }
      return;
    }
    String key = type.custom() ? null : mergeKey(field);
    if (value.isArray() && key != null && !value.isEmpty()) {
      for (JsonNode item : value) {
        if (!item.isObject() || !item.has(key)) {
          out.putIfAbsent(List.copyOf(path), shadow);
          return;
        }
      }
      Map<JsonNode, JsonNode> firstByKey = shadow == value ? firstByKey(value, key) : null;
      for (JsonNode item : value) {
        JsonNode id = item.get(key);
        JsonNode wanted = keyAsParsed(id);
        JsonNode first = firstByKey != null ? firstByKey.get(wanted) : firstIn(shadow, key, wanted);
        JsonNode itemShadow = first == null ? MissingNode.getInstance() : first;
        path.add("k:" + keyText(key, id));
        for (Map.Entry<String, JsonNode> e : item.properties()) {
          path.add("f:" + e.getKey());
          collect(e.getKey(), e.getValue(), itemShadow.path(e.getKey()));
          path.remove(path.size() - 1);
        }
        path.remove(path.size() - 1);
      }
      return;
    }
    out.putIfAbsent(List.copyOf(path), shadow);
  }

  /** Each key value of a list with the first element that has it. */
  private static Map<JsonNode, JsonNode> firstByKey(JsonNode list, String key) {
    Map<JsonNode, JsonNode> first = new HashMap<>();
    for (JsonNode item : list) {
      first.putIfAbsent(item.get(key), item);
    }
    return first;
  }

  /** The first element of {@code list} whose key equals {@code wanted}, or null. */
  private static JsonNode firstIn(JsonNode list, String key, JsonNode wanted) {
    if (list instanceof ArrayNode array) {
      for (JsonNode item : array) {
        if (wanted.equals(item.get(key))) {
          return item;
        }
      }
    }
    return null;
  }

  /**
   * The key as {@code valueAt} reads it back from the path's JSON: the same node for texts, ints
   * and booleans, else parsed from its JSON.
   */
  private static JsonNode keyAsParsed(JsonNode id) {
    if (id instanceof TextNode || id instanceof IntNode || id instanceof BooleanNode) {
      return id;
    }
    return FieldPaths.parseText(keyText("k", id)).get("k");
  }

  /** {@code {"<key>":<id>}} as Jackson writes it (the path segment after {@code k:}). */
  private static String keyText(String key, JsonNode id) {
    if (id instanceof IntNode) {
      return "{\"" + key + "\":" + id.intValue() + "}";
    }
    if (id instanceof TextNode text && plain(text.textValue())) {
      return "{\"" + key + "\":\"" + text.textValue() + "\"}";
    }
    ObjectNode object = Json.object();
    object.set(key, id);
    return FieldPaths.text(object);
  }

  // Printable ASCII without quote or backslash: Jackson writes it as it is.
  private static boolean plain(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private static String mergeKey(String field) {
    if (!MERGE_LISTS.contains(field)) {
      return null;
    }
    return switch (field) {
      case "ports" -> "containerPort";
      case "volumeMounts" -> "mountPath";
      case "volumeDevices" -> "devicePath";
      case "conditions" -> "type";
      case "ownerReferences" -> "uid";
      case "hostAliases" -> "ip";
      default -> "name";
    };
  }
}
