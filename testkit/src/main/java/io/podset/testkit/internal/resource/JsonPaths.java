package io.podset.testkit.internal.resource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * The simple JSON paths of printer columns and scale subresources: {@code .a.b}, {@code .a[0].b},
 * {@code .a[?(@.type=="Ready")].status}.
 */
public final class JsonPaths {

  private JsonPaths() {}

  /** The node at {@code path}, or a missing node. */
  public static JsonNode find(JsonNode root, String path) {
    String p = path.trim();
    if (p.startsWith("{") && p.endsWith("}")) {
      p = p.substring(1, p.length() - 1);
    }
    JsonNode node = root;
    int i = 0;
    while (i < p.length() && !node.isMissingNode()) {
      char c = p.charAt(i);
      if (c == '.') {
        i++;
        continue;
      }
      if (c == '[') {
        int end = p.indexOf(']', i);
        if (end < 0) {
          return MissingNode.getInstance();
        }
        node = subscript(node, p.substring(i + 1, end));
        i = end + 1;
        continue;
      }
      int end = i;
      while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
        end++;
      }
      node = node.path(p.substring(i, end));
      i = end;
    }
    return node;
  }

  private static JsonNode subscript(JsonNode node, String expr) {
    if (!node.isArray()) {
      return MissingNode.getInstance();
    }
    if (expr.startsWith("?(@.") && expr.endsWith(")")) {
      String condition = expr.substring(4, expr.length() - 1);
      int eq = condition.indexOf("==");
      if (eq < 0) {
        return MissingNode.getInstance();
      }
      String field = condition.substring(0, eq).trim();
      String value = condition.substring(eq + 2).trim().replaceAll("^[\"']|[\"']$", "");
      for (JsonNode element : node) {
        if (value.equals(find(element, field).asText(null))) {
          return element;
        }
      }
      return MissingNode.getInstance();
    }
    try {
      int index = Integer.parseInt(expr.trim());
      return node.path(index < 0 ? node.size() + index : index);
    } catch (NumberFormatException e) {
      return MissingNode.getInstance();
    }
  }
}
