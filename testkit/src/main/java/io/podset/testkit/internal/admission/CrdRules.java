package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.List;
import java.util.Locale;

/**
 * CustomResourceDefinitions: the checks that make a definition servable, the defaults Kubernetes
 * fills into {@code spec.names}, and the accepted status (NamesAccepted and Established at once).
 */
public enum CrdRules implements TypeRules {
  INSTANCE;

  @Override
  public void applyDefaults(ObjectNode crd) {
    ObjectNode spec = Json.child(crd, "spec");
    ObjectNode names = Json.child(spec, "names");
    String kind = names.path("kind").asText("");
    if (!names.hasNonNull("singular") && !kind.isEmpty()) {
      names.put("singular", kind.toLowerCase(Locale.ROOT));
    }
    if (!names.hasNonNull("listKind") && !kind.isEmpty()) {
      names.put("listKind", kind + "List");
    }
    if (!spec.has("conversion")) {
      spec.putObject("conversion").put("strategy", "None");
    }
  }

  @Override
  public void prepareForCreate(ObjectNode crd) {
    crd.set("status", acceptedStatus(crd));
  }

  /** The status a healthy API server reports once it serves the definition. */
  static ObjectNode acceptedStatus(ObjectNode crd) {
    ObjectNode status = Json.object();
    JsonNode spec = crd.path("spec");
    status.set("acceptedNames", spec.path("names").deepCopy());
    String now = Json.text(crd, "metadata.creationTimestamp");
    ArrayNode conditions = status.putArray("conditions");
    condition(conditions, "NamesAccepted", "NoConflicts", "no conflicts found", now);
    condition(
        conditions,
        "Established",
        "InitialNamesAccepted",
        "the initial names have been accepted",
        now);
    ArrayNode stored = status.putArray("storedVersions");
    for (JsonNode v : spec.path("versions")) {
      if (v.path("storage").asBoolean(false)) {
        stored.add(v.path("name").asText());
      }
    }
    return status;
  }

  private static void condition(
      ArrayNode conditions, String type, String reason, String message, String now) {
    ObjectNode c = conditions.addObject();
    c.put("type", type);
    c.put("status", "True");
    if (now != null) {
      c.put("lastTransitionTime", now);
    }
    c.put("reason", reason);
    c.put("message", message);
  }

  @Override
  public void validate(ObjectNode crd, List<StatusError.Cause> causes) {
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText("");
    JsonNode names = spec.path("names");
    String plural = names.path("plural").asText("");
    if (group.isEmpty()) {
      causes.add(new StatusError.Cause("FieldValueRequired", "spec.group", "Required value"));
    } else if (!group.contains(".")) {
      causes.add(
          new StatusError.Cause(
              "FieldValueInvalid",
              "spec.group",
              "Invalid value: \"" + group + "\": should be a domain with at least one dot"));
    }
    if (plural.isEmpty()) {
      causes.add(
          new StatusError.Cause("FieldValueRequired", "spec.names.plural", "Required value"));
    }
    if (names.path("kind").asText("").isEmpty()) {
      causes.add(new StatusError.Cause("FieldValueRequired", "spec.names.kind", "Required value"));
    }
    String name = Json.name(crd);
    if (name != null && !name.equals(plural + "." + group)) {
      causes.add(
          new StatusError.Cause(
              "FieldValueInvalid",
              "metadata.name",
              "Invalid value: \"" + name + "\": must be spec.names.plural+\".\"+spec.group"));
    }
    String scope = spec.path("scope").asText("");
    if (!scope.equals("Namespaced") && !scope.equals("Cluster")) {
      causes.add(
          new StatusError.Cause(
              "FieldValueNotSupported",
              "spec.scope",
              "Unsupported value: \""
                  + scope
                  + "\": supported values: \"Cluster\", \"Namespaced\""));
    }
    JsonNode versions = spec.path("versions");
    int storage = 0;
    for (JsonNode v : versions) {
      storage += v.path("storage").asBoolean(false) ? 1 : 0;
    }
    if (!versions.isArray() || versions.isEmpty()) {
      causes.add(new StatusError.Cause("FieldValueRequired", "spec.versions", "Required value"));
    } else if (storage != 1) {
      causes.add(
          new StatusError.Cause(
              "FieldValueInvalid",
              "spec.versions",
              "Invalid value: "
                  + versions
                  + ": must have exactly one version marked as storage version"));
    }
    ruleCompileErrors(versions, causes);
  }

  /**
   * Rules of the versions' schemas that do not compile, under {@code spec.validation} when every
   * version has the same schema (Kubernetes' internal form hoists it there), else per version.
   */
  private static void ruleCompileErrors(JsonNode versions, List<StatusError.Cause> causes) {
    boolean same = true;
    for (JsonNode v : versions) {
      same &= v.path("schema").equals(versions.path(0).path("schema"));
    }
    for (int i = 0; i < versions.size(); i++) {
      JsonNode schema = versions.get(i).path("schema").path("openAPIV3Schema");
      if (schema.isMissingNode() || (same && i > 0)) {
        continue;
      }
      String prefix =
          same
              ? "spec.validation.openAPIV3Schema."
              : "spec.versions[" + i + "].schema.openAPIV3Schema.";
      for (StatusError.Cause c : new SchemaRules(schema).ruleCompileErrors()) {
        causes.add(new StatusError.Cause(c.reason(), prefix + c.field(), c.message()));
      }
    }
  }
}
