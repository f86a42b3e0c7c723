package io.podset.testkit.internal.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The document of one custom resource version, built as kube-apiserver builds it: the real server's
 * document of a template CRD of the same scope with the template's names replaced by the CRD's
 * (paths, operation ids, schema names, the List kind and its descriptions), the object schema
 * replaced by the CRD version's {@code openAPIV3Schema} with {@code apiVersion}, {@code kind} and
 * {@code metadata} set as the server sets them and {@code x-kubernetes-group-version-kind}, and the
 * status and scale paths kept only for the subresources the CRD has.
 */
final class CustomResourceDocuments {

  private CustomResourceDocuments() {}

  static ObjectNode document(ResourceType type, JsonNode crdSchema) {
    JsonNode template = RealDocuments.crdTemplate(type.namespaced());
    Map<String, String> names = replacements(template.path("group").asText(), type);
    ObjectNode doc = (ObjectNode) rename(template.path("document"), names);
    Iterator<String> paths = doc.path("paths").fieldNames();
    while (paths.hasNext()) {
      String path = paths.next();
      if ((path.endsWith("/status") && !type.statusSubresource())
          || (path.endsWith("/scale") && type.scale() == null)) {
        paths.remove();
      }
    }
    ObjectNode schemas = (ObjectNode) doc.path("components").path("schemas");
    String name = schemaName(type);
    schemas.set(name, objectSchema((ObjectNode) schemas.path(name), type, crdSchema));
    SchemaReferences.dropUnreachable(doc);
    return doc;
  }

  /**
   * The CRD's schema with the template's {@code apiVersion}, {@code kind} and {@code metadata}
   * properties (kube-apiserver always sets these three, whatever the CRD says) and the kind's
   * group/version/kind.
   */
  private static ObjectNode objectSchema(ObjectNode template, ResourceType type, JsonNode crd) {
    ObjectNode schema =
        crd.isObject() ? crd.deepCopy() : template.objectNode().put("type", "object");
    ObjectNode properties =
        schema.has("properties")
            ? (ObjectNode) schema.get("properties")
            : schema.putObject("properties");
    for (String field : List.of("apiVersion", "kind", "metadata")) {
      properties.set(field, template.path("properties").path(field).deepCopy());
    }
    addEmbeddedProperties(schema, embeddedResourceProperties());
    ArrayNode gvk = schema.putArray("x-kubernetes-group-version-kind");
    gvk.addObject()
        .put("group", type.group())
        .put("kind", type.kind())
        .put("version", type.version());
    return schema;
  }

  /**
   * As kube-apiserver's {@code addEmbeddedProperties}: below properties, items and
   * additionalProperties, every {@code x-kubernetes-embedded-resource} gets the {@code apiVersion},
   * {@code kind} and {@code metadata} properties the real server adds (taken from its document of
   * the template's embedded resource), and requires {@code kind} and {@code apiVersion}.
   */
  private static void addEmbeddedProperties(JsonNode node, JsonNode added) {
    if (!(node instanceof ObjectNode schema)) {
      return;
    }
    schema.path("properties").forEach(p -> addEmbeddedProperties(p, added));
    addEmbeddedProperties(schema.path("items"), added);
    addEmbeddedProperties(schema.path("additionalProperties"), added);
    if (schema.path("x-kubernetes-embedded-resource").asBoolean(false)) {
      ObjectNode properties =
          schema.has("properties")
              ? (ObjectNode) schema.get("properties")
              : schema.putObject("properties");
      added.fields().forEachRemaining(e -> properties.set(e.getKey(), e.getValue().deepCopy()));
      ArrayNode required =
          schema.has("required") ? (ArrayNode) schema.get("required") : schema.putArray("required");
      for (String field : List.of("kind", "apiVersion")) {
        boolean present = false;
        for (JsonNode r : required) {
          present |= r.asText().equals(field);
        }
        if (!present) {
          required.add(field);
        }
      }
    }
  }

  /** The properties of the namespaced template's embedded resource ({@code spec.embedded}). */
  private static JsonNode embeddedResourceProperties() {
    JsonNode template = RealDocuments.crdTemplate(true);
    JsonNode p = RealDocuments.placeholders();
    String name =
        reversed(template.path("group").asText())
            + "."
            + p.path("version").asText()
            + "."
            + p.path("kind").asText();
    return template
        .path("document")
        .path("components")
        .path("schemas")
        .path(name)
        .at("/properties/spec/properties/embedded/properties");
  }

  /** As kube-apiserver names schemas: the group's labels reversed, then version and kind. */
  static String schemaName(ResourceType type) {
    return reversed(type.group()) + "." + type.version() + "." + type.kind();
  }

  private static String reversed(String group) {
    List<String> labels = new ArrayList<>(List.of(group.split("\\.")));
    Collections.reverse(labels);
    return String.join(".", labels);
  }

  /** Placeholder to real name, longest first so that no replacement breaks a longer one. */
  private static Map<String, String> replacements(String templateGroup, ResourceType type) {
    JsonNode p = RealDocuments.placeholders();
    String camelGroup = camel(templateGroup);
    Map<String, String> names = new LinkedHashMap<>();
    names.put(camelGroup, camel(type.group()));
    names.put(lowerFirst(camelGroup), lowerFirst(camel(type.group())));
    names.put(reversed(templateGroup), reversed(type.group()));
    names.put(templateGroup, type.group());
    names.put(upperFirst(p.path("version").asText()), upperFirst(type.version()));
    names.put(p.path("version").asText(), type.version());
    names.put(p.path("plural").asText(), type.plural());
    names.put(p.path("singular").asText(), type.singular());
    names.put(p.path("kind").asText(), type.kind());
    return names;
  }

  /** {@code conformance.podset.io} as operation ids spell it: {@code ConformancePodsetIo}. */
  private static String camel(String group) {
    StringBuilder out = new StringBuilder();
    for (String part : group.split("[.-]")) {
      out.append(upperFirst(part));
    }
    return out.toString();
  }

  private static String upperFirst(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
  }

  /** A copy of {@code node} with every placeholder replaced in field names and strings. */
  private static JsonNode rename(JsonNode node, Map<String, String> names) {
    if (node.isTextual()) {
      return TextNode.valueOf(replace(node.asText(), names));
    }
    if (node.isArray()) {
      ArrayNode copy = ((ArrayNode) node).arrayNode();
      node.forEach(e -> copy.add(rename(e, names)));
      return copy;
    }
    if (node.isObject()) {
      ObjectNode copy = ((ObjectNode) node).objectNode();
      node.fields()
          .forEachRemaining(e -> copy.set(replace(e.getKey(), names), rename(e.getValue(), names)));
      return copy;
    }
    return node.deepCopy();
  }

  private static String replace(String s, Map<String, String> names) {
    String out = s;
    for (Map.Entry<String, String> e : names.entrySet()) {
      if (!e.getKey().isEmpty() && out.contains(e.getKey())) {
        out = out.replace(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
