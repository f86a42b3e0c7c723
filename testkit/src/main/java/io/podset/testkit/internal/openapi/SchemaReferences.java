package io.podset.testkit.internal.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The {@code $ref} links of an OpenAPI v3 document: after paths are dropped, the component schemas
 * that no remaining path reaches (directly or through other schemas) are dropped too, so a trimmed
 * document describes exactly the operations it lists.
 */
final class SchemaReferences {

  private static final String PREFIX = "#/components/schemas/";

  private SchemaReferences() {}

  /** Removes the component schemas of {@code document} that its paths do not reach. */
  static void dropUnreachable(ObjectNode document) {
    JsonNode schemas = document.path("components").path("schemas");
    if (!(schemas instanceof ObjectNode components)) {
      return;
    }
    Set<String> reached = new HashSet<>();
    Deque<JsonNode> pending = new ArrayDeque<>();
    pending.push(document.path("paths"));
    while (!pending.isEmpty()) {
      collect(
          pending.pop(),
          name -> {
            if (reached.add(name) && components.has(name)) {
              pending.push(components.get(name));
            }
          });
    }
    Iterator<Map.Entry<String, JsonNode>> it = components.fields();
    while (it.hasNext()) {
      if (!reached.contains(it.next().getKey())) {
        it.remove();
      }
    }
  }

  private static void collect(JsonNode node, java.util.function.Consumer<String> found) {
    Deque<JsonNode> stack = new ArrayDeque<>();
    stack.push(node);
    while (!stack.isEmpty()) {
      JsonNode n = stack.pop();
      if (n.isObject()) {
        JsonNode ref = n.get("$ref");
        if (ref != null && ref.isTextual() && ref.asText().startsWith(PREFIX)) {
          found.accept(ref.asText().substring(PREFIX.length()));
        }
        n.elements().forEachRemaining(stack::push);
      } else if (n.isArray()) {
        n.elements().forEachRemaining(stack::push);
      }
    }
  }
}
