package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** JSON merge patch (RFC 7386) and JSON patch (RFC 6902) over Jackson trees. */
final class Patches {

  private Patches() {}

  /** Applies a merge patch; returns a new tree. */
  static JsonNode mergePatch(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result =
        target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
    mergeInto(result, (ObjectNode) patch);
    return result;
  }

  /** Merges {@code patch} into {@code result} in place: the tree is copied once, at the top. */
  private static void mergeInto(ObjectNode result, ObjectNode patch) {
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      JsonNode value = e.getValue();
      if (value.isNull()) {
        result.remove(e.getKey());
      } else if (value.isObject()) {
        ObjectNode child =
            result.get(e.getKey()) instanceof ObjectNode existing ? existing : Json.object();
        mergeInto(child, (ObjectNode) value);
        result.set(e.getKey(), child);
      } else {
        result.set(e.getKey(), value.deepCopy());
      }
    }
  }

  /**
   * Applies a JSON patch; returns a new tree.
   *
   * @throws StatusError 400 for a malformed patch, 422 when an operation cannot be applied
   */
  static JsonNode jsonPatch(JsonNode target, JsonNode patch) {
    if (!patch.isArray()) {
      throw StatusError.badRequest(
          "json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    }
    JsonNode doc = target.deepCopy();
    for (JsonNode op : patch) {
      String kind = op.path("op").asText("");
      String path = requiredText(op, "path");
      switch (kind) {
        case "add" -> doc = add(doc, path, required(op, "value").deepCopy());
        case "remove" -> doc = remove(doc, path);
        case "replace" -> {
          get(doc, path);
          doc = remove(doc, path);
          doc = add(doc, path, required(op, "value").deepCopy());
        }
        case "move" -> {
          String from = requiredText(op, "from");
          JsonNode value = get(doc, from);
          doc = remove(doc, from);
          doc = add(doc, path, value);
        }
        case "copy" -> doc = add(doc, path, get(doc, requiredText(op, "from")).deepCopy());
        case "test" -> {
          if (!get(doc, path).equals(required(op, "value"))) {
            throw unprocessable("testing value " + path + " failed: test failed");
          }
        }
        default -> throw StatusError.badRequest("Unexpected kind: " + kind);
      }
    }
    return doc;
  }

  private static JsonNode required(JsonNode op, String field) {
    JsonNode v = op.get(field);
    if (v == null) {
      throw StatusError.badRequest("missing value for operation " + op);
    }
    return v;
  }

  private static String requiredText(JsonNode op, String field) {
    JsonNode v = op.get(field);
    if (v == null || !v.isTextual()) {
      throw StatusError.badRequest("operation missing \"" + field + "\" string: " + op);
    }
    return v.asText();
  }

  private static StatusError unprocessable(String message) {
    return new StatusError(422, "Invalid", message, null);
  }

  private static List<String> tokens(String pointer) {
    if (pointer.isEmpty()) {
      return List.of();
    }
    if (!pointer.startsWith("/")) {
      throw StatusError.badRequest("invalid JSON pointer: " + pointer);
    }
    List<String> out = new ArrayList<>();
    for (String t : pointer.substring(1).split("/", -1)) {
      out.add(t.replace("~1", "/").replace("~0", "~"));
    }
    return out;
  }

  private static JsonNode get(JsonNode doc, String pointer) {
    JsonNode node = doc;
    for (String t : tokens(pointer)) {
      node = child(node, t, pointer);
    }
    return node;
  }

  private static JsonNode child(JsonNode node, String token, String pointer) {
    JsonNode next = null;
    if (node.isObject()) {
      next = node.get(token);
    } else if (node.isArray()) {
      int index = index(token, node.size() - 1, pointer);
      next = node.get(index);
    }
    if (next == null) {
      throw unprocessable("doc is missing path: \"" + pointer + "\": missing value");
    }
    return next;
  }

  private static int index(String token, int max, String pointer) {
    try {
      int i = Integer.parseInt(token);
      if (i < 0 || i > max) {
        throw unprocessable("Unable to access invalid index: " + i + " (path " + pointer + ")");
      }
      return i;
    } catch (NumberFormatException e) {
      throw unprocessable("Unable to access invalid index: " + token + " (path " + pointer + ")");
    }
  }

  private static JsonNode add(JsonNode doc, String pointer, JsonNode value) {
    List<String> tokens = tokens(pointer);
    if (tokens.isEmpty()) {
      return value;
    }
    JsonNode parent = doc;
    for (String t : tokens.subList(0, tokens.size() - 1)) {
      parent = child(parent, t, pointer);
    }
    String last = tokens.get(tokens.size() - 1);
    if (parent instanceof ObjectNode object) {
      object.set(last, value);
    } else if (parent instanceof ArrayNode array) {
      if (last.equals("-")) {
        array.add(value);
      } else {
        array.insert(index(last, array.size(), pointer), value);
      }
    } else {
      throw unprocessable("doc is missing path: \"" + pointer + "\": missing value");
    }
    return doc;
  }

  private static JsonNode remove(JsonNode doc, String pointer) {
    List<String> tokens = tokens(pointer);
    if (tokens.isEmpty()) {
      throw unprocessable("cannot remove the whole document");
    }
    JsonNode parent = doc;
    for (String t : tokens.subList(0, tokens.size() - 1)) {
      parent = child(parent, t, pointer);
    }
    String last = tokens.get(tokens.size() - 1);
    if (parent instanceof ObjectNode object) {
      if (object.remove(last) == null) {
        throw unprocessable("Unable to remove nonexistent key: " + last + ": missing value");
      }
    } else if (parent instanceof ArrayNode array) {
      array.remove(index(last, array.size() - 1, pointer));
    } else {
      throw unprocessable("doc is missing path: \"" + pointer + "\": missing value");
    }
    return doc;
  }
}
