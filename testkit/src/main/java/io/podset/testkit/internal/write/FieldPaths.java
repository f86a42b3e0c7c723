package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field paths as {@code managedFields} hold them (FieldsV1): the leaf fields of an object; the
 * elements of the lists strategic merge merges by key as {@code k:{"name":"app"}} with their
 * fields, any other list as one leaf, and finalizers by value ({@code v:"x"}); labels and
 * annotations of metadata. Reading and writing FieldsV1 documents, the value at a path, removing a
 * path, and the path as messages show it.
 */
final class FieldPaths {

  private FieldPaths() {}

  /**
   * Removes the field at a FieldsV1 path; a list element whose merge key goes is removed whole, and
   * objects left empty by the removal go too.
   */
  static void remove(ObjectNode root, List<String> path) {
    List<JsonNode> containers = new ArrayList<>();
    JsonNode node = root;
    for (String segment : path) {
      containers.add(node);
      node = step(node, segment);
      if (node.isMissingNode()) {
        return;
      }
    }
    int last = path.size() - 1;
    // The key field of a keyed list element: the element goes with it.
    if (last >= 1
        && path.get(last - 1).startsWith("k:")
        && parseText(path.get(last - 1).substring(2)).has(path.get(last).substring(2))) {
      last--;
    }
    removeChild(containers.get(last), path.get(last));
    for (int i = last; i >= 1; i--) {
      JsonNode container = containers.get(i);
      if (container.isContainerNode() && container.isEmpty()) {
        removeChild(containers.get(i - 1), path.get(i - 1));
      } else {
        break;
      }
    }
  }

  private static JsonNode step(JsonNode node, String segment) {
    if (segment.startsWith("f:")) {
      return node.path(segment.substring(2));
    }
    int index = indexOf(node, segment);
    return index < 0 ? MissingNode.getInstance() : node.get(index);
  }

  private static int indexOf(JsonNode list, String segment) {
    JsonNode wanted = parseText(segment.substring(2));
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      if (segment.startsWith("v:") ? item.equals(wanted) : containsAll(item, wanted)) {
        return i;
      }
    }
    return -1;
  }

  private static void removeChild(JsonNode container, String segment) {
    if (segment.startsWith("f:") && container instanceof ObjectNode object) {
      object.remove(segment.substring(2));
    } else if (container instanceof ArrayNode list) {
      int index = indexOf(list, segment);
      if (index >= 0) {
        list.remove(index);
      }
    }
  }

  /** The leaf fields of an applied configuration, as FieldsV1 paths (status aside). */
  static Set<List<String>> fields(ResourceType type, ObjectNode config) {
    return fields(type, config, false);
  }

  /**
   * The leaf fields of an object as FieldsV1 paths: its status only, or everything else (labels,
   * annotations and finalizers of its metadata).
   */
  static Set<List<String>> fields(ResourceType type, ObjectNode config, boolean status) {
    return new LinkedHashSet<>(FieldLeaves.of(type, config, status).keySet());
  }

  /** The value at a FieldsV1 path, or a missing node. */
  static JsonNode valueAt(JsonNode root, List<String> path) {
    JsonNode node = root;
    for (String segment : path) {
      node = step(node, segment);
    }
    return node;
  }

  private static boolean containsAll(JsonNode item, JsonNode keys) {
    for (Map.Entry<String, JsonNode> e : keys.properties()) {
      if (!e.getValue().equals(item.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  static String text(JsonNode node) {
    return new String(Json.bytes(node), java.nio.charset.StandardCharsets.UTF_8);
  }

  static JsonNode parseText(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (java.io.IOException e) {
      throw StatusError.badRequest("malformed managedFields key " + json + ": " + e.getMessage());
    }
  }

  /** The leaf paths of a FieldsV1 document. */
  static Set<List<String>> parse(JsonNode fieldsV1) {
    Set<List<String>> out = new LinkedHashSet<>();
    parse(fieldsV1, new ArrayList<>(), out);
    return out;
  }

  // path: where node is, appended to and cut back while descending (a list is made per leaf).
  private static void parse(JsonNode node, List<String> path, Set<List<String>> out) {
    if (!node.isObject()) {
      return;
    }
    boolean leaf = true;
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (e.getKey().equals(".")) {
        continue;
      }
      leaf = false;
      path.add(e.getKey());
      parse(e.getValue(), path, out);
      path.remove(path.size() - 1);
    }
    if (leaf && !path.isEmpty()) {
      out.add(List.copyOf(path));
    }
  }

  /**
   * Whether {@code render(parse(fieldsV1))} is {@code fieldsV1} itself, field order included: a
   * non-empty tree of objects without {@code "."} markers. An entry of such fields that a write
   * does not touch can be kept as it is.
   */
  static boolean canonical(JsonNode fieldsV1) {
    return fieldsV1.isObject() && !fieldsV1.isEmpty() && objectsOnly(fieldsV1);
  }

  private static boolean objectsOnly(JsonNode node) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (e.getKey().equals(".") || !e.getValue().isObject() || !objectsOnly(e.getValue())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the leaf paths of a {@link #canonical} FieldsV1 document ({@link #parse}) hold any of
   * {@code paths}, found by walking each path rather than parsing the document.
   */
  static boolean ownsAny(JsonNode fieldsV1, Set<List<String>> paths) {
    for (List<String> path : paths) {
      if (owns(fieldsV1, path)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the leaf paths of a {@link #canonical} FieldsV1 document hold all of {@code paths}. */
  static boolean ownsAll(JsonNode fieldsV1, Set<List<String>> paths) {
    for (List<String> path : paths) {
      if (!owns(fieldsV1, path)) {
        return false;
      }
    }
    return true;
  }

  private static boolean owns(JsonNode fieldsV1, List<String> path) {
    JsonNode node = fieldsV1;
    for (String segment : path) {
      node = node.get(segment);
      if (node == null) {
        return false;
      }
    }
    return node.isEmpty();
  }

  /** A FieldsV1 document of leaf paths. */
  static ObjectNode render(Set<List<String>> fields) {
    ObjectNode root = Json.object();
    for (List<String> path : fields) {
      ObjectNode node = root;
      for (String segment : path) {
        node = Json.child(node, segment);
      }
    }
    return root;
  }

  /** {@code .spec.containers[name="app"].image}: a field path for messages. */
  static String display(List<String> path) {
    StringBuilder s = new StringBuilder();
    for (String segment : path) {
      if (segment.startsWith("f:")) {
        s.append('.').append(segment.substring(2));
      } else if (segment.startsWith("k:")) {
        JsonNode keys = parseText(segment.substring(2));
        s.append('[');
        boolean first = true;
        for (Map.Entry<String, JsonNode> e : keys.properties()) {
          s.append(first ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
          first = false;
        }
        s.append(']');
      } else {
        s.append('[').append(segment.substring(2)).append(']');
      }
    }
    return s.toString();
  }
}
