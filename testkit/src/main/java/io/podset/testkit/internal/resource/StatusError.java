package io.podset.testkit.internal.resource;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * A request failure carried to the HTTP layer as a Kubernetes {@code Status} body, with the reason
 * and code a real API server uses for the same situation.
 */
public final class StatusError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** One field-level cause of an Invalid error. */
  public record Cause(String reason, String field, String message) {}

  private final int code;
  private final String reason;
  private final transient ObjectNode details;

  public StatusError(int code, String reason, String message, ObjectNode details) {
    super(message);
    this.code = code;
    this.reason = Objects.requireNonNull(reason, "reason");
    this.details = details;
  }

  public int code() {
    return code;
  }

  String reason() {
    return reason;
  }

  /** The {@code Status} object of this failure. */
  public ObjectNode toStatus() {
    return status(code, reason, getMessage(), details);
  }

  static ObjectNode status(int code, String reason, String message, ObjectNode details) {
    ObjectNode status = Json.object();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", code < 400 ? "Success" : "Failure");
    status.put("message", message);
    status.put("reason", reason);
    if (details != null) {
      status.set("details", details);
    }
    status.put("code", code);
    return status;
  }

  public static ObjectNode details(String name, String group, String kind) {
    ObjectNode details = Json.object();
    if (name != null) {
      details.put("name", name);
    }
    if (group != null && !group.isEmpty()) {
      details.put("group", group);
    }
    if (kind != null) {
      details.put("kind", kind);
    }
    return details;
  }

  public static String qualified(ResourceType type) {
    return type.group().isEmpty() ? type.plural() : type.plural() + "." + type.group();
  }

  public static StatusError notFound(ResourceType type, String name) {
    return new StatusError(
        404,
        "NotFound",
        qualified(type) + " \"" + name + "\" not found",
        details(name, type.group(), type.plural()));
  }

  public static StatusError namespaceNotFound(String namespace) {
    return new StatusError(
        404,
        "NotFound",
        "namespaces \"" + namespace + "\" not found",
        details(namespace, "", "namespaces"));
  }

  public static StatusError pathNotFound(String message) {
    return new StatusError(404, "NotFound", message, null);
  }

  public static StatusError alreadyExists(ResourceType type, String name) {
    return new StatusError(
        409,
        "AlreadyExists",
        qualified(type) + " \"" + name + "\" already exists",
        details(name, type.group(), type.plural()));
  }

  public static StatusError conflict(ResourceType type, String name) {
    return new StatusError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on "
            + qualified(type)
            + " \""
            + name
            + "\": the object has been modified; please apply your changes to the latest version"
            + " and try again",
        details(name, type.group(), type.plural()));
  }

  public static StatusError invalid(ResourceType type, String name, List<Cause> causes) {
    return invalid(type.group(), type.kind(), name, causes);
  }

  /** 422 Invalid for an object of {@code kind} in {@code group}, one cause per problem. */
  public static StatusError invalid(String group, String kind, String name, List<Cause> causes) {
    ObjectNode details = details(name, group, kind);
    ArrayNode array = details.putArray("causes");
    StringBuilder message = new StringBuilder();
    for (Cause cause : causes) {
      ObjectNode c = array.addObject();
      c.put("reason", cause.reason());
      c.put("message", cause.message());
      c.put("field", cause.field());
      message.append(message.length() == 0 ? "" : ", ");
      message.append(cause.field()).append(": ").append(cause.message());
    }
    String qualified = group.isEmpty() ? kind : kind + "." + group;
    String text = qualified + " \"" + name + "\" is invalid: ";
    if (causes.size() > 1) {
      text += "[" + message + "]";
    } else {
      text += message;
    }
    return new StatusError(422, "Invalid", text, details);
  }

  public static StatusError badRequest(String message) {
    return new StatusError(400, "BadRequest", message, null);
  }

  public static StatusError gone(String message) {
    return new StatusError(410, "Expired", message, null);
  }

  public static StatusError methodNotAllowed(String message) {
    return new StatusError(405, "MethodNotAllowed", message, null);
  }

  public static StatusError unsupportedMediaType(String contentType, String accepted) {
    return new StatusError(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
            + accepted
            + (contentType == null ? "" : " (got " + contentType + ")"),
        null);
  }

  public static StatusError tooLargeResourceVersion(long requested, long current) {
    ObjectNode details = Json.object();
    ObjectNode cause = details.putArray("causes").addObject();
    cause.put("reason", "ResourceVersionTooLarge");
    cause.put("message", "Too large resource version");
    details.put("retryAfterSeconds", 1);
    return new StatusError(
        504,
        "Timeout",
        "Timeout: Too large resource version: " + requested + ", current: " + current,
        details);
  }
}
