package io.podset.testkit.internal.resource;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** JSON plumbing shared by the server: one mapper, path look-ups and metadata accessors. */
public final class Json {

  public static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * Parses request bodies without Jackson's shared table of field names. Bodies name fields nobody
   * named before (managedFields keys carry names and uids: {@code k:{"name":"kube-api-access-…"}}),
   * and each such parse copied the whole table before adding its name, and grew it until it reset:
   * 0.3 to 1 MB allocated per pod create, growing with the pods created.
   */
  private static final ObjectMapper BODIES =
      new ObjectMapper(
          JsonFactory.builder().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build());

  private Json() {}

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  public static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode parse(byte[] body) throws IOException {
    return BODIES.readTree(body);
  }

  public static <T> T convert(Object value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }

  public static ObjectNode toNode(Object value) {
    return MAPPER.valueToTree(value);
  }

  /** The node at a dotted path ({@code spec.replicas}), or a missing node. */
  public static JsonNode at(JsonNode root, String dottedPath) {
    // Walked by index, not split: name, namespace and resourceVersion are read on every request.
    JsonNode node = root;
    int start = 0;
    int length = dottedPath.length();
    while (start < length) {
      int dot = dottedPath.indexOf('.', start);
      int end = dot < 0 ? length : dot;
      if (end > start) {
        node = node.path(dottedPath.substring(start, end));
      }
      start = end + 1;
    }
    return node;
  }

  /** The object at {@code field} of {@code parent}, created when absent or not an object. */
  public static ObjectNode child(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node instanceof ObjectNode existing) {
      return existing;
    }
    return parent.putObject(field);
  }

  public static ObjectNode metadata(ObjectNode object) {
    return child(object, "metadata");
  }

  public static String text(JsonNode node, String dottedPath) {
    return textOf(at(node, dottedPath));
  }

  public static String name(JsonNode object) {
    return metadataText(object, "name");
  }

  public static String namespace(JsonNode object) {
    return metadataText(object, "namespace");
  }

  public static String resourceVersion(JsonNode object) {
    return metadataText(object, "resourceVersion");
  }

  private static String metadataText(JsonNode object, String field) {
    return textOf(object.path("metadata").path(field));
  }

  private static String textOf(JsonNode value) {
    return value.isValueNode() && !value.isNull() ? value.asText() : null;
  }
}
