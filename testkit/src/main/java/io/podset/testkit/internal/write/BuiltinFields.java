package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.podset.runtime.protobuf.KubernetesProtobuf;
import io.podset.testkit.internal.codec.ProtobufBodies;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields a built-in kind declares, read from its Kubernetes 1.34 protobuf schema (the same
 * descriptors {@link ProtobufBodies} decodes with): a JSON object of a built-in kind loses the
 * fields its type does not have, as the API server's typed decoding drops them, and the paths of
 * what was dropped come back in document order ({@code spec.containers[0].bogus}) for the {@code
 * fieldValidation} warnings and errors.
 */
final class BuiltinFields {

  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  private static final String EXTENSIONS =
      "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.";

  // Types whose JSON form is not their protobuf fields: their content is not checked.
  private static final Set<String> OPAQUE =
      Set.of(
          META + "Time",
          META + "MicroTime",
          META + "Duration",
          META + "FieldsV1",
          "k8s.io.apimachinery.pkg.api.resource.Quantity",
          "k8s.io.apimachinery.pkg.util.intstr.IntOrString",
          "k8s.io.apimachinery.pkg.runtime.RawExtension",
          EXTENSIONS + "JSON",
          EXTENSIONS + "JSONSchemaPropsOrBool",
          EXTENSIONS + "JSONSchemaPropsOrArray",
          EXTENSIONS + "JSONSchemaPropsOrStringArray");

  // Per message: JSON name -> field; filled on first use, never changed afterwards.
  private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS =
      new ConcurrentHashMap<>();

  private BuiltinFields() {}

  /**
   * Removes from {@code object} (of {@code type}) every field its type does not declare and returns
   * their paths; nothing for kinds without a schema (custom resources).
   */
  static List<String> prune(ResourceType type, ObjectNode object) {
    Descriptor message =
        type.custom() ? null : KubernetesProtobuf.get().message(type.apiVersion(), type.kind());
    List<String> unknown = new ArrayList<>();
    if (message != null) {
      prune(message, object, new StringBuilder(), true, unknown);
    }
    return unknown;
  }

  /** Removes the fields {@code metadata} does not declare (custom resources) and returns them. */
  static List<String> pruneMetadata(ObjectNode object) {
    List<String> unknown = new ArrayList<>();
    if (object.get("metadata") instanceof ObjectNode metadata) {
      prune(
          KubernetesProtobuf.get().message("meta.k8s.io/v1", "ObjectMeta"),
          metadata,
          new StringBuilder("metadata"),
          false,
          unknown);
    }
    return unknown;
  }

  // path: where object is (appended to and cut back while descending, so that a path is only made
  // into a string for a field that is dropped: the walk visits every field of every write).
  private static void prune(
      Descriptor message,
      ObjectNode object,
      StringBuilder path,
      boolean top,
      List<String> unknown) {
    Map<String, FieldDescriptor> fields = FIELDS.computeIfAbsent(message, BuiltinFields::index);
    List<String> drop = null;
    int length = path.length();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      String name = e.getKey();
      if (top && (name.equals("apiVersion") || name.equals("kind"))) {
        continue;
      }
      FieldDescriptor field = fields.get(name);
      if (field == null || field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        if (length > 0) {
          path.append('.');
        }
        path.append(name);
        if (field == null) {
          if (drop == null) {
            drop = new ArrayList<>();
          }
          drop.add(name);
          unknown.add(path.toString());
        } else {
          value(field, e.getValue(), path, unknown);
        }
        path.setLength(length);
      }
    }
    if (drop != null) {
      object.remove(drop);
    }
  }

  private static void value(
      FieldDescriptor field, JsonNode value, StringBuilder path, List<String> unknown) {
    int length = path.length();
    if (field.isMapField()) {
      FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
      if (valueField.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        for (Map.Entry<String, JsonNode> e : value.properties()) {
          path.append('.').append(e.getKey());
          single(valueField.getMessageType(), e.getValue(), path, unknown);
          path.setLength(length);
        }
      }
    } else if (field.isRepeated()) {
      for (int i = 0; i < value.size(); i++) {
        path.append('[').append(i).append(']');
        single(field.getMessageType(), value.get(i), path, unknown);
        path.setLength(length);
      }
    } else {
      single(field.getMessageType(), value, path, unknown);
    }
  }

  private static void single(
      Descriptor message, JsonNode value, StringBuilder path, List<String> unknown) {
    if (value instanceof ObjectNode object && !OPAQUE.contains(message.getFullName())) {
      prune(message, object, path, false, unknown);
    }
  }

  // An embedded struct's fields (a Volume's volumeSource) are the enclosing object's in JSON.
  private static Map<String, FieldDescriptor> index(Descriptor message) {
    Map<String, FieldDescriptor> byJsonName = new HashMap<>();
    for (FieldDescriptor field : message.getFields()) {
      if (KubernetesProtobuf.get().inline(field)) {
        byJsonName.putAll(index(field.getMessageType()));
      } else {
        byJsonName.put(ProtobufBodies.jsonName(message, field), field);
      }
    }
    return byJsonName;
  }
}
