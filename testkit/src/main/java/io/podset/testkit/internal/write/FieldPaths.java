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
    Set<List<String>> result = new LinkedHashSet<>();
    for (Map.Entry<String, JsonNode> e : config.properties()) {
      String field = e.getKey();
      if (field.equals("apiVersion") || field.equals("kind") || field.equals("status") != status) {
        continue;
      }
      if (field.equals("metadata")) {
        for (String part : List.of("labels", "annotations")) {
          for (Map.Entry<String, JsonNode> m : e.getValue().path(part).properties()) {
            result.add(List.of("f:metadata", "f:" + part, "f:" + m.getKey()));
          }
        }
        for (JsonNode f : e.getValue().path("finalizers")) {
          result.add(List.of("f:metadata", "f:finalizers", "v:" + text(f)));
        }
        continue;
      }
      collect(type, List.of("f:" + field), field, e.getValue(), result);
    }
    return result;
  }

  private static void collect(
      ResourceType type, List<String> path, String field, JsonNode value, Set<List<String>> out) {
    if (value.isObject() && !value.isEmpty()) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        collect(type, append(path, "f:" + e.getKey()), e.getKey(), e.getValue(), out);
      }
      return;
    }
    String key = type.custom() ? null : mergeKey(field);
    if (value.isArray() && key != null && !value.isEmpty()) {
      for (JsonNode item : value) {
        if (!item.isObject() || !item.has(key)) {
          out.add(path);
          return;
        }
      }
      for (JsonNode item : value) {
        ObjectNode id = Json.object();
        id.set(key, item.get(key));
        List<String> itemPath = append(path, "k:" + text(id));
        for (Map.Entry<String, JsonNode> e : item.properties()) {
          collect(type, append(itemPath, "f:" + e.getKey()), e.getKey(), e.getValue(), out);
        }
      }
      return;
    }
    out.add(path);
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

  private static List<String> append(List<String> path, String segment) {
    List<String> copy = new ArrayList<>(path);
    copy.add(segment);
    return List.copyOf(copy);
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

  private static String text(JsonNode node) {
    return new String(Json.bytes(node), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static JsonNode parseText(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (java.io.IOException e) {
      throw StatusError.badRequest("malformed managedFields key " + json + ": " + e.getMessage());
    }
  }

  /** The leaf paths of a FieldsV1 document. */
  static Set<List<String>> parse(JsonNode fieldsV1) {
    Set<List<String>> out = new LinkedHashSet<>();
    parse(fieldsV1, List.of(), out);
    return out;
  }

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
      parse(e.getValue(), append(path, e.getKey()), out);
    }
    if (leaf && !path.isEmpty()) {
      out.add(path);
    }
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
