package io.podset.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pods: the API server's defaults that clients commonly read back, a {@code Pending} status on
 * creation, and the required container fields.
 */
enum PodRules implements TypeRules {
  INSTANCE;

  @Override
  public void prepareForCreate(ObjectNode object) {
    ObjectNode status = object.putObject("status");
    status.put("phase", "Pending");
    status.put("qosClass", "BestEffort");
  }

  @Override
  public void applyDefaults(ObjectNode object) {
    ObjectNode spec = Json.child(object, "spec");
    putIfAbsent(spec, "restartPolicy", "Always");
    putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    putIfAbsent(spec, "schedulerName", "default-scheduler");
    if (!spec.has("terminationGracePeriodSeconds")) {
      spec.put("terminationGracePeriodSeconds", 30);
    }
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(list)) {
        if (c instanceof ObjectNode container) {
          putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
          putIfAbsent(container, "terminationMessagePolicy", "File");
          String image = container.path("image").asText("");
          String tag = image.contains(":") ? image.substring(image.lastIndexOf(':') + 1) : "";
          putIfAbsent(
              container,
              "imagePullPolicy",
              tag.isEmpty() || tag.equals("latest") || tag.contains("/")
                  ? "Always"
                  : "IfNotPresent");
        }
      }
    }
  }

  private static void putIfAbsent(ObjectNode node, String field, String value) {
    if (!node.hasNonNull(field)) {
      node.put(field, value);
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
