package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import io.podset.testkit.internal.codec.ProtobufBodies;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import java.io.IOException;
import java.util.List;

/**
 * The options of a DELETE, from its {@code DeleteOptions} body and its query (the body wins).
 *
 * @param gracePeriodSeconds the requested grace period, or null for the kind's default
 * @param propagationPolicy {@code Orphan}, {@code Background}, {@code Foreground}, or null
 * @param uid the uid precondition, or null
 * @param resourceVersion the resourceVersion precondition, or null
 * @param dryRun whether {@code dryRun=All} was asked: validate, persist nothing
 */
public record DeleteOptions(
    Long gracePeriodSeconds,
    String propagationPolicy,
    String uid,
    String resourceVersion,
    boolean dryRun) {

  public static final DeleteOptions NONE = new DeleteOptions(null, null, null, null, false);

  /** Parses the options of {@code request}, rejecting unknown policies and dry-run values. */
  public static DeleteOptions parse(ApiRequest request) {
    JsonNode options = Json.object();
    if (request.body().length > 0 && ProtobufBodies.MEDIA_TYPE.equals(request.contentType())) {
      options = ProtobufBodies.decode(request.body());
    } else if (request.body().length > 0) {
      try {
        JsonNode parsed = Json.parse(request.body());
        if (parsed != null && parsed.isObject()) {
          options = parsed;
        }
      } catch (IOException e) {
        throw StatusError.badRequest(
            "the DeleteOptions body could not be decoded: " + e.getMessage());
      }
    }
    String policy = options.path("propagationPolicy").asText(request.param("propagationPolicy"));
    if (policy != null && policy.isEmpty()) {
      policy = null;
    }
    if (policy == null && options.has("orphanDependents")) {
      policy = options.path("orphanDependents").asBoolean() ? "Orphan" : "Background";
    }
    if (policy != null && !List.of("Orphan", "Background", "Foreground").contains(policy)) {
      throw StatusError.badRequest(
          "propagationPolicy: Unsupported value: \""
              + policy
              + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
    }
    Long grace = null;
    JsonNode graceNode = options.get("gracePeriodSeconds");
    String graceParam = request.param("gracePeriodSeconds");
    if (graceNode != null && !graceNode.isNull()) {
      if (!graceNode.canConvertToLong()) {
        throw StatusError.badRequest("gracePeriodSeconds: Invalid value: " + graceNode);
      }
      grace = graceNode.asLong();
    } else if (graceParam != null && !graceParam.isEmpty()) {
      try {
        grace = Long.parseLong(graceParam);
      } catch (NumberFormatException e) {
        throw StatusError.badRequest("gracePeriodSeconds: Invalid value: \"" + graceParam + "\"");
      }
    }
    JsonNode pre = options.path("preconditions");
    String uid = pre.path("uid").asText("");
    String rv = pre.path("resourceVersion").asText("");
    return new DeleteOptions(
        grace,
        policy,
        uid.isEmpty() ? null : uid,
        rv.isEmpty() ? null : rv,
        dryRun(request, options.path("dryRun")));
  }

  /** {@code dryRun=All} from the query or a body's list; any other value is a 400. */
  static boolean dryRun(ApiRequest request, JsonNode bodyValues) {
    boolean dry = false;
    String param = request.param("dryRun");
    if (param != null && !param.isEmpty()) {
      dry = checkDryRun(param);
    }
    for (JsonNode value : bodyValues) {
      dry |= checkDryRun(value.asText());
    }
    return dry;
  }

  private static boolean checkDryRun(String value) {
    if (!value.equals("All")) {
      throw StatusError.badRequest(
          "dryRun: Unsupported value: \"" + value + "\": supported values: \"All\"");
    }
    return true;
  }
}
