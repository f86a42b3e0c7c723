package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.StatusError;

/** 422 Invalid for one field of a review or token request, as kube-apiserver words it. */
final class Invalid {

  private Invalid() {}

  static StatusError of(String group, String kind, String field, String message) {
    ObjectNode details = StatusError.details(null, group, kind.isEmpty() ? null : kind);
    ObjectNode cause = details.putArray("causes").addObject();
    cause.put("reason", "FieldValueInvalid");
    cause.put("message", message);
    cause.put("field", field);
    return new StatusError(
        422,
        "Invalid",
        kind + "." + group + " \"\" is invalid: " + field + ": " + message,
        details);
  }
}
