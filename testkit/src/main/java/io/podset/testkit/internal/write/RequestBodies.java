package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.podset.testkit.internal.codec.ProtobufBodies;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import java.io.IOException;

/**
 * The bodies of write requests: an object (JSON, YAML or protobuf) or a patch (JSON patch, merge
 * patch, strategic merge patch, apply configuration), and the checks of an object body against the
 * request (apiVersion and kind, namespace, name), with the real server's 400 and 415 answers.
 */
public final class RequestBodies {

  private static final YAMLMapper YAML = new YAMLMapper();

  /** The content type of a server-side apply. */
  static final String APPLY = "application/apply-patch+yaml";

  /** The media types an object body may come in. */
  static final String OBJECT_MEDIA_TYPES =
      "application/json, application/yaml, " + ProtobufBodies.MEDIA_TYPE;

  static final String PATCH_MEDIA_TYPES =
      "application/json-patch+json, application/merge-patch+json, "
          + "application/strategic-merge-patch+json, "
          + "application/apply-patch+yaml";

  private RequestBodies() {}

  /** The object a request's body holds; 415 for another media type, 400 for anything else. */
  public static ObjectNode object(ApiRequest request) {
    String type = request.contentType();
    JsonNode node;
    try {
      if (type == null
          || type.equals("application/json")
          || type.equals("*/*")
          || type.endsWith("+json")) {
        node = Json.parse(request.body());
      } else if (type.equals("application/yaml")) {
        node = YAML.readTree(request.body());
      } else if (type.equals(ProtobufBodies.MEDIA_TYPE)) {
        return ProtobufBodies.decode(request.body());
      } else {
        throw StatusError.unsupportedMediaType(type, OBJECT_MEDIA_TYPES);
      }
    } catch (IOException e) {
      throw StatusError.badRequest(
          "the body of the request could not be decoded: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw StatusError.badRequest("the body of the request must be a JSON object");
    }
    return (ObjectNode) node;
  }

  /** The patch a PATCH request's body holds, by its content type. */
  public static JsonNode patch(ResourceType type, ApiRequest request) {
    String contentType = request.contentType();
    if (contentType == null) {
      throw StatusError.unsupportedMediaType(null, PATCH_MEDIA_TYPES);
    }
    switch (contentType) {
      case "application/json-patch+json", "application/merge-patch+json" -> {}
      case APPLY -> {
        try {
          JsonNode config = YAML.readTree(request.body());
          if (config == null || config.isMissingNode()) {
            throw StatusError.badRequest("empty apply configuration");
          }
          return config;
        } catch (IOException e) {
          throw StatusError.badRequest("error decoding YAML: " + e.getMessage());
        }
      }
      case "application/strategic-merge-patch+json" -> {
        if (type.custom()) {
          throw StatusError.unsupportedMediaType(
              contentType, "application/json-patch+json, application/merge-patch+json, " + APPLY);
        }
      }
      default -> throw StatusError.unsupportedMediaType(contentType, PATCH_MEDIA_TYPES);
    }
    try {
      JsonNode patch = Json.parse(request.body());
      if (patch == null) {
        throw StatusError.badRequest("empty patch");
      }
      return patch;
    } catch (IOException e) {
      throw StatusError.badRequest("error decoding patch: " + e.getMessage());
    }
  }

  /** {@code current} with {@code patch} of {@code contentType} applied. */
  public static JsonNode applyPatch(String contentType, JsonNode current, JsonNode patch) {
    return switch (contentType) {
      case "application/json-patch+json" -> Patches.jsonPatch(current, patch);
      case "application/strategic-merge-patch+json" ->
          StrategicMerge.apply(current.path("kind").asText(), current, patch);
      default -> {
        if (!patch.isObject()) {
          throw StatusError.badRequest("a merge patch must be a JSON object");
        }
        yield Patches.mergePatch(current, patch);
      }
    };
  }

  /** Fills in the apiVersion and kind of {@code type} where absent; 400 where they differ. */
  static void checkKind(ResourceType type, ObjectNode body) {
    checkOrFill(body, "apiVersion", "API version", type.apiVersion());
    checkOrFill(body, "kind", "kind", type.kind());
  }

  private static void checkOrFill(ObjectNode body, String field, String label, String expected) {
    String value = body.path(field).asText("");
    if (value.isEmpty()) {
      body.put(field, expected);
    } else if (!value.equals(expected)) {
      throw StatusError.badRequest(
          "the "
              + label
              + " in the data ("
              + value
              + ") does not match the expected "
              + label
              + " ("
              + expected
              + ")");
    }
  }

  /** Sets the name of {@code body} to the URL's; 400 where the body names another object. */
  static void checkName(ObjectNode body, String name) {
    String bodyName = Json.name(body);
    if (bodyName != null && !bodyName.equals(name)) {
      throw StatusError.badRequest(
          "the name of the object ("
              + bodyName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    Json.metadata(body).put("name", name);
  }

  /** Fills in the request's namespace (drops it for cluster-scoped kinds); 400 where it differs. */
  static void checkNamespace(ResourceType type, String namespace, ObjectNode body) {
    ObjectNode meta = Json.metadata(body);
    if (!type.namespaced()) {
      meta.remove("namespace");
      return;
    }
    String declared = meta.path("namespace").asText("");
    if (declared.isEmpty()) {
      meta.put("namespace", namespace);
    } else if (!declared.equals(namespace)) {
      throw StatusError.badRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
  }
}
