package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.NameRule;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.resource.TypeRules;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pods: the API server's defaults ({@link PodSpecDefaults}, plus requests copied from limits and
 * {@code enableServiceLinks}), what its default admission plugins add on create (the {@code
 * not-ready} and {@code unreachable} tolerations of DefaultTolerationSeconds; priority 0 and {@code
 * PreemptLowerPriority} from Priority when no class is named), a {@code Pending} status with the
 * computed QoS class, and the required container fields.
 */
public enum PodRules implements TypeRules {
  INSTANCE;

  private static final List<String> NO_EXECUTE_TAINTS =
      List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable");

  @Override
  public void prepareForCreate(ObjectNode object) {
    ObjectNode spec = Json.child(object, "spec");
    if (spec.path("priorityClassName").asText("").isEmpty()) {
      if (!spec.has("priority")) {
        spec.put("priority", 0);
      }
      PodSpecDefaults.putIfAbsent(spec, "preemptionPolicy", "PreemptLowerPriority");
    }
    ObjectNode status = object.putObject("status");
    status.put("phase", "Pending");
    status.put("qosClass", PodQos.of(spec));
  }

  @Override
  public void prepareForUpdate(ObjectNode current, ObjectNode next) {
    // Priority admission keeps what it set on create when an update leaves it out.
    ObjectNode spec = Json.child(next, "spec");
    for (String field : List.of("priority", "preemptionPolicy")) {
      JsonNode old = current.path("spec").get(field);
      if (!spec.has(field) && old != null) {
        spec.set(field, old);
      }
    }
  }

  @Override
  public void applyDefaults(ObjectNode object) {
    ObjectNode spec = Json.child(object, "spec");
    PodSpecDefaults.apply(spec);
    for (JsonNode c : spec.path("initContainers")) {
      requestsFromLimits(c);
    }
    for (JsonNode c : spec.path("containers")) {
      requestsFromLimits(c);
    }
    if (!spec.hasNonNull("enableServiceLinks")) {
      spec.put("enableServiceLinks", true);
    }
    tolerateUnreadyNodes(spec);
  }

  private static void requestsFromLimits(JsonNode container) {
    JsonNode limits = container.path("resources").path("limits");
    if (!(limits instanceof ObjectNode) || !(container.get("resources") instanceof ObjectNode r)) {
      return;
    }
    ObjectNode requests = Json.child(r, "requests");
    limits
        .properties()
        .forEach(
            e -> {
              if (!requests.has(e.getKey())) {
                requests.set(e.getKey(), e.getValue().deepCopy());
              }
            });
  }

  // DefaultTolerationSeconds (on create and update): 300 s on not-ready and unreachable nodes,
  // unless the pod already tolerates those NoExecute taints.
  private static void tolerateUnreadyNodes(ObjectNode spec) {
    for (String taint : NO_EXECUTE_TAINTS) {
      boolean tolerated = false;
      for (JsonNode t : spec.path("tolerations")) {
        String key = t.path("key").asText("");
        String effect = t.path("effect").asText("");
        if ((key.isEmpty() || key.equals(taint))
            && (effect.isEmpty() || effect.equals("NoExecute"))) {
          tolerated = true;
        }
      }
      if (!tolerated) {
        ObjectNode toleration =
            (spec.get("tolerations") instanceof ArrayNode list
                    ? list
                    : spec.putArray("tolerations"))
                .addObject();
        toleration.put("key", taint);
        toleration.put("operator", "Exists");
        toleration.put("effect", "NoExecute");
        toleration.put("tolerationSeconds", 300);
      }
    }
  }

  @Override
  public void validate(ObjectNode object, List<StatusError.Cause> causes) {
    JsonNode containers = object.path("spec").path("containers");
    if (!containers.isArray() || containers.isEmpty()) {
      causes.add(new StatusError.Cause("FieldValueRequired", "spec.containers", "Required value"));
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < containers.size(); i++) {
      JsonNode c = containers.get(i);
      String prefix = "spec.containers[" + i + "].";
      String name = c.path("name").asText("");
      if (name.isEmpty()) {
        causes.add(new StatusError.Cause("FieldValueRequired", prefix + "name", "Required value"));
      } else if (NameRule.LABEL.check(name) != null) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                prefix + "name",
                "Invalid value: \"" + name + "\": " + NameRule.LABEL.check(name)));
      } else if (!names.add(name)) {
        causes.add(
            new StatusError.Cause(
                "FieldValueDuplicate", prefix + "name", "Duplicate value: \"" + name + "\""));
      }
      if (c.path("image").asText("").isBlank()) {
        causes.add(new StatusError.Cause("FieldValueRequired", prefix + "image", "Required value"));
      }
    }
  }
}
