package io.podset.testkit.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.podset.runtime.protobuf.GoDurations;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a Kubernetes protobuf body ({@code application/vnd.kubernetes.protobuf}: the bytes {@code
 * k8s\0} and a {@code runtime.Unknown} envelope around the object) into the JSON the server works
 * on, as the API server's own JSON encoding would write it.
 *
 * <p>The protobuf encoding has no "unset" for non-pointer Go fields, so their empty strings and the
 * zero time are left out, as Go's {@code omitempty} does; an empty string in a pointer field (a
 * Lease's {@code holderIdentity: ""}, which client-go's leader election writes on release) is kept;
 * numbers and booleans are kept (a {@code replicas: 0} must stay). A field the 1.34 schema does not
 * know is refused, never dropped.
 */
public final class ProtobufBodies {

  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  private static final String EXTENSIONS =
      "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.";
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ProtobufBodies() {}

  /**
   * The object in {@code body}.
   *
   * @throws StatusError 400 when the body is not a Kubernetes protobuf object this server knows
   */
  public static ObjectNode decode(byte[] body) {
    if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, 4)) {
      throw StatusError.badRequest(
          "the protobuf body does not start with the Kubernetes prefix \"k8s\\x00\"");
    }
    KubernetesProtobuf schemas = KubernetesProtobuf.get();
    Message envelope = parse(schemas.envelope(), body, MAGIC.length);
    Message typeMeta = (Message) field(envelope, "typeMeta");
    String apiVersion = (String) field(typeMeta, "apiVersion");
    String kind = (String) field(typeMeta, "kind");
    String encoding = (String) field(envelope, "contentEncoding");
    if (!encoding.isEmpty()) {
      throw StatusError.badRequest(
          "contentEncoding: Unsupported value: \"" + encoding + "\": only none is supported");
    }
    Descriptor type = schemas.message(apiVersion, kind);
    if (type == null) {
      throw StatusError.badRequest(
          "no protobuf schema for apiVersion \""
              + apiVersion
              + "\", kind \""
              + kind
              + "\" (built-in Kubernetes 1.34 types only; send custom resources as JSON)");
    }
    byte[] raw = ((ByteString) field(envelope, "raw")).toByteArray();
    ObjectNode object = NODES.objectNode();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    object.setAll(message(parse(type, raw, 0), kind));
    return object;
  }

  private static Message parse(Descriptor type, byte[] bytes, int offset) {
    try {
      return DynamicMessage.parseFrom(
          type, CodedInputStream.newInstance(bytes, offset, bytes.length - offset));
    } catch (IOException e) {
      throw StatusError.badRequest(
          "the protobuf body could not be decoded as " + type.getName() + ": " + e.getMessage());
    }
  }

  private static Object field(Message message, String name) {
    return message.getField(message.getDescriptorForType().findFieldByName(name));
  }

  // path: where this message sits in the object, for error messages.
  private static ObjectNode message(Message message, String path) {
    if (!message.getUnknownFields().asMap().isEmpty()) {
      throw StatusError.badRequest(
          path
              + ": field number(s) "
              + message.getUnknownFields().asMap().keySet()
              + " of "
              + message.getDescriptorForType().getName()
              + " are not in the Kubernetes 1.34 schema of this server; send the object as JSON");
    }
    ObjectNode json = NODES.objectNode();
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      FieldDescriptor field = entry.getKey();
      String name = jsonName(message.getDescriptorForType(), field);
      JsonNode value = fieldValue(field, entry.getValue(), path + "." + name);
      if (value instanceof ObjectNode embedded && KubernetesProtobuf.get().inline(field)) {
        json.setAll(embedded);
      } else if (value != null) {
        json.set(name, value);
      }
    }
    return json;
  }

  private static JsonNode fieldValue(FieldDescriptor field, Object value, String path) {
    if (field.isMapField()) {
      ObjectNode map = NODES.objectNode();
      for (Object entry : (List<?>) value) {
        Message pair = (Message) entry;
        FieldDescriptor keyField = pair.getDescriptorForType().findFieldByName("key");
        FieldDescriptor valueField = pair.getDescriptorForType().findFieldByName("value");
        String key = String.valueOf(pair.getField(keyField));
        JsonNode mapped = single(valueField, pair.getField(valueField), path + "[" + key + "]");
        map.set(key, mapped == null ? emptyOf(valueField) : mapped);
      }
      return map;
    }
    if (field.isRepeated()) {
      ArrayNode array = NODES.arrayNode();
      List<?> items = (List<?>) value;
      for (int i = 0; i < items.size(); i++) {
        JsonNode item = single(field, items.get(i), path + "[" + i + "]");
        array.add(item == null ? emptyOf(field) : item);
      }
      return array;
    }
    return single(field, value, path);
  }

  // An element of a list or map is kept even when empty: the list's length is data.
  private static JsonNode emptyOf(FieldDescriptor field) {
    return field.getJavaType() == FieldDescriptor.JavaType.STRING
        ? NODES.textNode("")
        : NODES.nullNode();
  }

  private static JsonNode single(FieldDescriptor field, Object value, String path) {
    return switch (field.getJavaType()) {
      case STRING ->
          ((String) value).isEmpty() && !KubernetesProtobuf.get().pointer(field)
              ? null
              : NODES.textNode((String) value);
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case INT -> NODES.numberNode((Integer) value);
      case LONG -> NODES.numberNode((Long) value);
      case FLOAT -> NODES.numberNode((Float) value);
      case DOUBLE -> NODES.numberNode((Double) value);
      case BYTE_STRING ->
          NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case MESSAGE -> special((Message) value, path);
      case ENUM -> NODES.textNode(value.toString());
    };
  }

  // The types whose JSON is not their fields: times, quantities, int-or-string, embedded JSON.
  private static JsonNode special(Message value, String path) {
    String type = value.getDescriptorForType().getFullName();
    switch (type) {
      case META + "Time", META + "MicroTime" -> {
        long seconds = (Long) field(value, "seconds");
        int nanos = (Integer) field(value, "nanos");
        if (seconds == 0 && nanos == 0) {
          return null;
        }
        Instant at = Instant.ofEpochSecond(seconds, nanos);
        return NODES.textNode((type.endsWith("MicroTime") ? MICROS : SECONDS).format(at));
      }
      case META + "Duration" -> {
        return NODES.textNode(GoDurations.format((Long) field(value, "duration")));
      }
      case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
        return NODES.textNode((String) field(value, "string"));
      }
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
        return (Long) field(value, "type") == 1L
            ? NODES.textNode((String) field(value, "strVal"))
            : NODES.numberNode((Integer) field(value, "intVal"));
      }
      case "k8s.io.apimachinery.pkg.runtime.RawExtension", EXTENSIONS + "JSON" -> {
        return embedded((ByteString) field(value, "raw"), path);
      }
      case META + "FieldsV1" -> {
        return embedded((ByteString) field(value, "Raw"), path);
      }
      case EXTENSIONS + "JSONSchemaPropsOrBool" -> {
        return schemaOr(value, "allows", path);
      }
      case EXTENSIONS + "JSONSchemaPropsOrArray" -> {
        return schemaOr(value, "jSONSchemas", path);
      }
      case EXTENSIONS + "JSONSchemaPropsOrStringArray" -> {
        return schemaOr(value, "property", path);
      }
      default -> {
        return message(value, path);
      }
    }
  }

  // A JSONSchemaPropsOr*: the schema when set, else the alternative (a bool or a list).
  private static JsonNode schemaOr(Message value, String alternative, String path) {
    Descriptor type = value.getDescriptorForType();
    if (value.hasField(type.findFieldByName("schema"))) {
      return message((Message) field(value, "schema"), path);
    }
    FieldDescriptor other = type.findFieldByName(alternative);
    return fieldValue(other, value.getField(other), path);
  }

  // JSON (or a nested protobuf object, in a RawExtension) carried as bytes.
  private static JsonNode embedded(ByteString raw, String path) {
    if (raw.isEmpty()) {
      return null;
    }
    byte[] bytes = raw.toByteArray();
    if (bytes.length >= MAGIC.length && Arrays.equals(bytes, 0, 4, MAGIC, 0, 4)) {
      return decode(bytes);
    }
    try {
      return Json.parse(bytes);
    } catch (IOException e) {
      throw StatusError.badRequest(
          path + ": embedded JSON could not be decoded: " + e.getMessage());
    }
  }

  // The proto field names are the JSON names, except JSONSchemaProps' $ref, $schema and x-*.
  public static String jsonName(Descriptor owner, FieldDescriptor field) {
    String name = field.getName();
    if (!owner.getFullName().equals(EXTENSIONS + "JSONSchemaProps")) {
      return name;
    }
    if (name.equals("ref") || name.equals("schema")) {
      return "$" + name;
    }
    if (name.startsWith("xKubernetes")) {
      return "x-kubernetes"
          + name.substring("xKubernetes".length())
              .replaceAll("([A-Z])", "-$1")
              .toLowerCase(Locale.ROOT);
    }
    return name;
  }
}
