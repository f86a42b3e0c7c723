package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Strategic merge patch for built-in kinds: maps merge (null deletes a key), lists with a merge key
 * merge element by element, {@code metadata.finalizers} merges as a set, other lists are replaced.
 * Directives: {@code $patch: replace} and {@code $patch: delete} on a map or a list element, {@code
 * $deleteFromPrimitiveList/<field>}; {@code $setElementOrder/<field>} and {@code $retainKeys} are
 * accepted and ignored.
 *
 * <p>Merge keys by list field name: {@code containers}, {@code initContainers}, {@code
 * ephemeralContainers}, {@code volumes}, {@code env}, {@code imagePullSecrets} by {@code name};
 * {@code ports} by {@code containerPort} (by {@code port} directly under a Service's {@code spec});
 * {@code volumeMounts} by {@code mountPath}; {@code volumeDevices} by {@code devicePath}; {@code
 * conditions} by {@code type}; {@code ownerReferences} by {@code uid}; {@code hostAliases} by
 * {@code ip}.
 */
public final class StrategicMerge {

  private static final Map<String, String> MERGE_KEYS =
      Map.ofEntries(
          Map.entry("containers", "name"),
          Map.entry("initContainers", "name"),
          Map.entry("ephemeralContainers", "name"),
          Map.entry("volumes", "name"),
          Map.entry("env", "name"),
          Map.entry("imagePullSecrets", "name"),
          Map.entry("ports", "containerPort"),
          Map.entry("volumeMounts", "mountPath"),
          Map.entry("volumeDevices", "devicePath"),
          Map.entry("conditions", "type"),
          Map.entry("ownerReferences", "uid"),
          Map.entry("hostAliases", "ip"));

  /** Primitive lists merged as sets (by path from the root). */
  private static final Set<String> SET_LISTS = Set.of("metadata.finalizers");

  private StrategicMerge() {}

  /**
   * Applies {@code patch} to {@code target} (an object of {@code kind}); returns a new tree.
   *
   * @throws StatusError 400 for a malformed patch or unknown directive
   */
  static JsonNode apply(String kind, JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      throw StatusError.badRequest("a strategic merge patch must be a JSON object");
    }
    ObjectNode base = target.isObject() ? (ObjectNode) target : Json.object();
    JsonNode merged = mergeMap(kind, "", base, (ObjectNode) patch, true);
    return merged == null ? Json.object() : merged;
  }

  /**
   * The merged map, or null when the patch deletes it; {@code target} is copied when {@code copy}
   * (the caller's object), else merged in place (a part of a copy made above).
   */
  private static ObjectNode mergeMap(
      String kind, String path, ObjectNode target, ObjectNode patch, boolean copy) {
    JsonNode directive = patch.get("$patch");
    if (directive != null) {
      switch (directive.asText()) {
        case "delete" -> {
          return null;
        }
        case "replace" -> {
          return withoutDirectives(patch);
        }
        case "merge" -> {}
        default ->
            throw StatusError.badRequest(
                "unknown patch type: " + directive.asText() + " in map at " + display(path));
      }
    }
    ObjectNode result = target == null ? Json.object() : copy ? target.deepCopy() : target;
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      String field = e.getKey();
      JsonNode value = e.getValue();
      if (field.equals("$patch") || field.equals("$retainKeys")) {
        continue;
      }
      if (field.startsWith("$setElementOrder/")) {
        continue;
      }
      if (field.startsWith("$deleteFromPrimitiveList/")) {
        String list = field.substring("$deleteFromPrimitiveList/".length());
        deleteFromPrimitiveList(result, list, value);
        continue;
      }
      if (field.startsWith("$")) {
        throw StatusError.badRequest("unknown directive " + field + " at " + display(path));
      }
      String childPath = path.isEmpty() ? field : path + "." + field;
      if (value.isNull()) {
        result.remove(field);
      } else if (value.isObject()) {
        JsonNode current = result.get(field);
        ObjectNode merged =
            mergeMap(
                kind,
                childPath,
                current instanceof ObjectNode o ? o : null,
                (ObjectNode) value,
                false);
        if (merged == null) {
          result.remove(field);
        } else {
          result.set(field, merged);
        }
      } else if (value.isArray()) {
        JsonNode current = result.get(field);
        ArrayNode merged =
            mergeList(
                kind,
                childPath,
                field,
                current instanceof ArrayNode a ? a : null,
                (ArrayNode) value);
        result.set(field, merged);
      } else {
        result.set(field, value.deepCopy());
      }
    }
    return result;
  }

  private static ArrayNode mergeList(
      String kind, String path, String field, ArrayNode target, ArrayNode patch) {
    boolean replace = false;
    List<JsonNode> items = new ArrayList<>();
    for (JsonNode item : patch) {
      if (item.isObject() && item.size() == 1 && item.has("$patch")) {
        String directive = item.get("$patch").asText();
        if (!directive.equals("replace")) {
          throw StatusError.badRequest(
              "unknown patch type: " + directive + " in list at " + display(path));
        }
        replace = true;
      } else {
        items.add(item);
      }
    }
    ArrayNode result = JsonNodeFactory.instance.arrayNode();
    String key = mergeKey(kind, path, field);
    if (SET_LISTS.contains(path) && !replace) {
      Set<JsonNode> union = new LinkedHashSet<>();
      List<JsonNode> original = new ArrayList<>();
      if (target != null) {
        target.forEach(original::add);
      }
      union.addAll(original);
      union.addAll(items);
      inServerOrder(new ArrayList<>(union), items, original, item -> item).forEach(result::add);
      return result;
    }
    if (key == null || replace || target == null) {
      for (JsonNode item : items) {
        if (!(item.isObject() && "delete".equals(item.path("$patch").asText()))) {
          result.add(item.isObject() ? withoutDirectives((ObjectNode) item) : item.deepCopy());
        }
      }
      return result;
    }
    List<JsonNode> merged = new ArrayList<>();
    target.forEach(merged::add);
    for (JsonNode item : items) {
      if (!item.isObject() || !item.has(key)) {
        throw StatusError.badRequest(
            "map: "
                + item
                + " does not contain declared merge key: "
                + key
                + " at "
                + display(path));
      }
      JsonNode id = item.get(key);
      int index = -1;
      for (int i = 0; i < merged.size(); i++) {
        if (id.equals(merged.get(i).get(key))) {
          index = i;
          break;
        }
      }
      ObjectNode current = index < 0 ? null : (ObjectNode) merged.get(index);
      ObjectNode next = mergeMap(kind, path, current, (ObjectNode) item, false);
      if (next == null) {
        if (index >= 0) {
          merged.remove(index);
        }
      } else if (index >= 0) {
        merged.set(index, next);
      } else {
        merged.add(next);
      }
    }
    List<JsonNode> original = new ArrayList<>();
    target.forEach(original::add);
    inServerOrder(merged, items, original, item -> item.get(key)).forEach(result::add);
    return result;
  }

  /**
   * The order kube-apiserver gives a merged list (apimachinery's normalizeElementOrder): the items
   * the patch named, in the patch's order, with the items only the live list had inserted among
   * them by their live order (an item of the patch the live list lacks goes before them).
   */
  private static List<JsonNode> inServerOrder(
      List<JsonNode> merged,
      List<JsonNode> patch,
      List<JsonNode> live,
      Function<JsonNode, JsonNode> identity) {
    List<JsonNode> patchIds = patch.stream().map(identity).toList();
    List<JsonNode> liveIds = live.stream().map(identity).toList();
    List<JsonNode> patched = new ArrayList<>();
    List<JsonNode> liveOnly = new ArrayList<>();
    for (JsonNode item : merged) {
      (patchIds.contains(identity.apply(item)) ? patched : liveOnly).add(item);
    }
    patched.sort(Comparator.comparingInt(item -> patchIds.indexOf(identity.apply(item))));
    liveOnly.sort(Comparator.comparingInt(item -> liveIds.indexOf(identity.apply(item))));
    List<JsonNode> ordered = new ArrayList<>(merged.size());
    int i = 0;
    int j = 0;
    while (i < liveOnly.size() || j < patched.size()) {
      if (j >= patched.size()) {
        ordered.add(liveOnly.get(i++));
      } else if (i >= liveOnly.size()) {
        ordered.add(patched.get(j++));
      } else {
        int left = liveIds.indexOf(identity.apply(liveOnly.get(i)));
        int right = liveIds.indexOf(identity.apply(patched.get(j)));
        ordered.add(left >= 0 && right >= 0 && left < right ? liveOnly.get(i++) : patched.get(j++));
      }
    }
    return ordered;
  }

  private static String mergeKey(String kind, String path, String field) {
    if (field.equals("ports") && kind.equals("Service") && path.equals("spec.ports")) {
      return "port";
    }
    return MERGE_KEYS.get(field);
  }

  private static void deleteFromPrimitiveList(ObjectNode result, String list, JsonNode values) {
    JsonNode current = result.get(list);
    if (!(current instanceof ArrayNode array) || !values.isArray()) {
      return;
    }
    Set<JsonNode> remove = new LinkedHashSet<>();
    values.forEach(remove::add);
    ArrayNode kept = JsonNodeFactory.instance.arrayNode();
    for (JsonNode item : array) {
      if (!remove.contains(item)) {
        kept.add(item);
      }
    }
    result.set(list, kept);
  }

  private static ObjectNode withoutDirectives(ObjectNode node) {
    ObjectNode copy = Json.object();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (e.getKey().startsWith("$")) {
        continue;
      }
      JsonNode value = e.getValue();
      if (value instanceof ObjectNode o) {
        copy.set(e.getKey(), withoutDirectives(o));
      } else if (value instanceof ArrayNode a) {
        ArrayNode items = copy.putArray(e.getKey());
        for (JsonNode item : a) {
          if (item instanceof ObjectNode o) {
            if (!(o.size() == 1 && o.has("$patch"))) {
              items.add(withoutDirectives(o));
            }
          } else {
            items.add(item.deepCopy());
          }
        }
      } else {
        copy.set(e.getKey(), value.deepCopy());
      }
    }
    return copy;
  }

  private static String display(String path) {
    return path.isEmpty() ? "the root" : path;
  }
}
