package io.podset.runtime.informer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The Kubernetes protobuf encoding of JSON objects, as the API server writes it, for tests: every
 * JSON field must have its proto field (else the encoding fails, so a test cannot silently lose
 * one), and the zero values JSON leaves out of fields that are no pointer are written, as Go's
 * generated code does. In controller-runtime's test jar, for the benchmarks.
 */
public final class ProtobufEncoding {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final KubernetesProtobuf SCHEMA = KubernetesProtobuf.get();
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";

  private ProtobufEncoding() {}

  /** {@code k8s\0} and a {@code runtime.Unknown} around the object's message. */
  public static byte[] object(ObjectNode json) {
    String apiVersion = json.path("apiVersion").asText();
    String kind = json.path("kind").asText();
    Descriptor type = SCHEMA.message(apiVersion, kind);
    if (type == null) {
      throw new IllegalArgumentException("no message for " + apiVersion + " " + kind);
    }
    ObjectNode fields = json.deepCopy();
    fields.remove("apiVersion");
    fields.remove("kind");
    Descriptor unknown = SCHEMA.envelope();
    Descriptor typeMeta = unknown.findFieldByName("typeMeta").getMessageType();
    Message envelope =
        DynamicMessage.newBuilder(unknown)
            .setField(
                unknown.findFieldByName("typeMeta"),
                DynamicMessage.newBuilder(typeMeta)
                    .setField(typeMeta.findFieldByName("apiVersion"), apiVersion)
                    .setField(typeMeta.findFieldByName("kind"), kind)
                    .build())
            .setField(unknown.findFieldByName("raw"), message(type, fields, kind).toByteString())
            .build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0});
    out.writeBytes(envelope.toByteArray());
    return out.toByteArray();
  }

  /** One frame of a protobuf watch body: a {@code meta/v1.WatchEvent} after its length. */
  public static byte[] watchFrame(String type, ObjectNode object) {
    Descriptor event = SCHEMA.message("meta.k8s.io/v1", "WatchEvent");
    Descriptor raw = event.findFieldByName("object").getMessageType();
    byte[] bytes =
        DynamicMessage.newBuilder(event)
            .setField(event.findFieldByName("type"), type)
            .setField(
                event.findFieldByName("object"),
                DynamicMessage.newBuilder(raw)
                    .setField(raw.findFieldByName("raw"), ByteString.copyFrom(object(object)))
                    .build())
            .build()
            .toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes.length >>> 24);
    out.write(bytes.length >>> 16);
    out.write(bytes.length >>> 8);
    out.write(bytes.length);
    out.writeBytes(bytes);
    return out.toByteArray();
  }

  public static ObjectNode parse(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Message message(Descriptor type, ObjectNode json, String path) {
    return message(type, json, path, true);
  }

  /** With {@code strict}, every field of {@code json} must be one of the message's. */
  private static Message message(Descriptor type, ObjectNode json, String path, boolean strict) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    Set<String> unused = new HashSet<>();
    json.fieldNames().forEachRemaining(unused::add);
    for (FieldDescriptor field : type.getFields()) {
      if (SCHEMA.inline(field)) {
        Message inner = message(field.getMessageType(), json, path, false);
        unused.removeIf(name -> field.getMessageType().findFieldByName(name) != null);
        builder.setField(field, inner);
        continue;
      }
      JsonNode value = json.get(field.getName());
      unused.remove(field.getName());
      if (value == null || value.isNull()) {
        // Go writes a field that is no pointer even when zero, which JSON leaves out if omitempty.
        if (!field.isRepeated() && SCHEMA.omitsZero(field)) {
          switch (field.getJavaType()) {
            case STRING -> builder.setField(field, "");
            case INT -> builder.setField(field, 0);
            case LONG -> builder.setField(field, 0L);
            case BOOLEAN -> builder.setField(field, false);
            default -> {}
          }
        }
        continue;
      }
      String at = path + "." + field.getName();
      if (field.isMapField()) {
        Descriptor entry = field.getMessageType();
        FieldDescriptor valueField = entry.findFieldByNumber(2);
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          builder.addRepeatedField(
              field,
              DynamicMessage.newBuilder(entry)
                  .setField(entry.findFieldByNumber(1), e.getKey())
                  .setField(valueField, single(valueField, e.getValue(), at))
                  .build());
        }
      } else if (field.isRepeated()) {
        for (JsonNode element : value) {
          builder.addRepeatedField(field, single(field, element, at));
        }
      } else {
        builder.setField(field, single(field, value, at));
      }
    }
    if (strict && !unused.isEmpty()) {
      throw new IllegalArgumentException(path + ": no proto field for " + unused);
    }
    return builder.build();
  }

  private static Object single(FieldDescriptor field, JsonNode value, String path) {
    return switch (field.getJavaType()) {
      case STRING -> value.asText();
      case INT -> value.asInt();
      case LONG -> value.asLong();
      case BOOLEAN -> value.asBoolean();
      case MESSAGE -> special(field.getMessageType(), value, path);
      default -> throw new IllegalArgumentException(path + ": " + field.getJavaType());
    };
  }

  private static Message special(Descriptor type, JsonNode value, String path) {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
    switch (type.getFullName()) {
      case META + "Time", META + "MicroTime" -> {
        Instant at = Instant.parse(value.asText());
        b.setField(type.findFieldByName("seconds"), at.getEpochSecond());
        b.setField(type.findFieldByName("nanos"), at.getNano());
      }
      case "k8s.io.apimachinery.pkg.api.resource.Quantity" ->
          b.setField(type.findFieldByName("string"), value.asText());
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
        if (value.isNumber()) {
          b.setField(type.findFieldByName("type"), 0L);
          b.setField(type.findFieldByName("intVal"), value.asInt());
        } else {
          b.setField(type.findFieldByName("type"), 1L);
          b.setField(type.findFieldByName("strVal"), value.asText());
        }
      }
      case META + "FieldsV1", "k8s.io.apimachinery.pkg.runtime.RawExtension" -> {
        try {
          b.setField(type.findFieldByNumber(1), ByteString.copyFrom(JSON.writeValueAsBytes(value)));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      default -> {
        return message(type, (ObjectNode) value, path);
      }
    }
    return b.build();
  }
}
