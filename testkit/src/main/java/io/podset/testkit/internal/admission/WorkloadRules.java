package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.TypeRules;

/**
 * The defaults of the pod-template workloads as Kubernetes 1.34 sets them (apps/v1 and core/v1
 * {@code SetDefaults_*}): replicas, strategies, history limits and deadlines; the pod template's
 * {@link PodSpecDefaults}; the zero counters a new status shows; a DaemonSet's template generation
 * annotation; a ReplicationController's selector and labels from its template.
 */
public enum WorkloadRules implements TypeRules {
  DEPLOYMENT {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {
      putIfAbsent(spec, "replicas", 1);
      ObjectNode strategy = Json.child(spec, "strategy");
      PodSpecDefaults.putIfAbsent(strategy, "type", "RollingUpdate");
      if (strategy.path("type").asText().equals("RollingUpdate")) {
        ObjectNode rolling = Json.child(strategy, "rollingUpdate");
        PodSpecDefaults.putIfAbsent(rolling, "maxUnavailable", "25%");
        PodSpecDefaults.putIfAbsent(rolling, "maxSurge", "25%");
      }
      putIfAbsent(spec, "revisionHistoryLimit", 10);
      putIfAbsent(spec, "progressDeadlineSeconds", 600);
    }
  },
  REPLICA_SET {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {
      putIfAbsent(spec, "replicas", 1);
      putIfAbsent(status, "replicas", 0);
    }
  },
  STATEFUL_SET {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {
      putIfAbsent(spec, "replicas", 1);
      if (!spec.has("serviceName")) {
        spec.put("serviceName", "");
      }
      PodSpecDefaults.putIfAbsent(spec, "podManagementPolicy", "OrderedReady");
      ObjectNode strategy = Json.child(spec, "updateStrategy");
      if (strategy.path("type").asText("").isEmpty()) {
        strategy.put("type", "RollingUpdate");
        Json.child(strategy, "rollingUpdate");
      }
      if (strategy.path("type").asText().equals("RollingUpdate")
          && strategy.get("rollingUpdate") instanceof ObjectNode rolling) {
        putIfAbsent(rolling, "partition", 0);
      }
      ObjectNode retention = Json.child(spec, "persistentVolumeClaimRetentionPolicy");
      PodSpecDefaults.putIfAbsent(retention, "whenDeleted", "Retain");
      PodSpecDefaults.putIfAbsent(retention, "whenScaled", "Retain");
      putIfAbsent(spec, "revisionHistoryLimit", 10);
      putIfAbsent(status, "replicas", 0);
      putIfAbsent(status, "availableReplicas", 0);
    }
  },
  DAEMON_SET {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {
      ObjectNode strategy = Json.child(spec, "updateStrategy");
      PodSpecDefaults.putIfAbsent(strategy, "type", "RollingUpdate");
      if (strategy.path("type").asText().equals("RollingUpdate")) {
        ObjectNode rolling = Json.child(strategy, "rollingUpdate");
        putIfAbsent(rolling, "maxUnavailable", 1);
        putIfAbsent(rolling, "maxSurge", 0);
      }
      putIfAbsent(spec, "revisionHistoryLimit", 10);
      for (String counter :
          new String[] {
            "currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"
          }) {
        putIfAbsent(status, counter, 0);
      }
    }

    @Override
    public void prepareForCreate(ObjectNode object) {
      Json.child(Json.metadata(object), "annotations").put(TEMPLATE_GENERATION, "1");
    }

    @Override
    public void prepareForUpdate(ObjectNode current, ObjectNode next) {
      // The annotation is the v1 form of spec.templateGeneration: one more on a template change.
      ObjectNode template = Json.child(Json.child(next, "spec"), "template").deepCopy();
      PodSpecDefaults.apply(Json.child(template, "spec"));
      Json.child(template, "metadata");
      String old =
          current.path("metadata").path("annotations").path(TEMPLATE_GENERATION).asText("");
      ObjectNode annotations = Json.child(Json.metadata(next), "annotations");
      if (!template.equals(current.path("spec").path("template"))) {
        long generation = old.isEmpty() ? 0 : Long.parseLong(old);
        annotations.put(TEMPLATE_GENERATION, Long.toString(generation + 1));
      } else if (!annotations.has(TEMPLATE_GENERATION) && !old.isEmpty()) {
        annotations.put(TEMPLATE_GENERATION, old);
      }
    }
  },
  REPLICATION_CONTROLLER {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {
      putIfAbsent(spec, "replicas", 1);
      putIfAbsent(status, "replicas", 0);
    }

    @Override
    public void applyDefaults(ObjectNode object) {
      super.applyDefaults(object);
      JsonNode labels = object.path("spec").path("template").path("metadata").path("labels");
      if (labels.isObject() && !labels.isEmpty()) {
        ObjectNode spec = Json.child(object, "spec");
        if (spec.path("selector").isEmpty()) {
          spec.set("selector", labels.deepCopy());
        }
        if (object.path("metadata").path("labels").isEmpty()) {
          Json.metadata(object).set("labels", labels.deepCopy());
        }
      }
    }
  },
  POD_TEMPLATE {
    @Override
    void defaults(ObjectNode spec, ObjectNode status) {}

    @Override
    public void applyDefaults(ObjectNode object) {
      template(Json.child(object, "template"));
    }
  };

  static final String TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";

  /** The kind's own defaults of {@code spec} and of the status it always shows. */
  abstract void defaults(ObjectNode spec, ObjectNode status);

  @Override
  public void applyDefaults(ObjectNode object) {
    ObjectNode spec = Json.child(object, "spec");
    defaults(spec, Json.child(object, "status"));
    template(Json.child(spec, "template"));
  }

  /** A pod template: an (empty) metadata object and the pod spec defaults. */
  static void template(ObjectNode template) {
    Json.child(template, "metadata");
    PodSpecDefaults.apply(Json.child(template, "spec"));
  }

  static void putIfAbsent(ObjectNode node, String field, int value) {
    if (!node.hasNonNull(field)) {
      node.put(field, value);
    }
  }
}
