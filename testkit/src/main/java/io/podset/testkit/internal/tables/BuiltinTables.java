package io.podset.testkit.internal.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The server-side table columns of pods, deployments, services and nodes, computed as
 * kube-apiserver 1.34's printers ({@code pkg/printers/internalversion}) compute them, so {@code
 * kubectl get pods} shows READY, STATUS (with container reasons, {@code Init:0/1}, {@code
 * Terminating}), RESTARTS and AGE. The wide columns are always in the rows, as on a real server.
 */
public enum BuiltinTables {
  PODS("", "Pod") {
    @Override
    List<Column> columns() {
      return List.of(
          new Column(
              "Ready", 0, "The aggregate readiness state of this pod for accepting traffic."),
          new Column("Status", 0, "The aggregate status of the containers in this pod."),
          new Column(
              "Restarts",
              0,
              "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
          AGE,
          new Column("IP", 1, "podIP address allocated to the pod."),
          new Column("Node", 1, "NodeName indicates in which node this pod is scheduled."),
          new Column(
              "Nominated Node",
              1,
              "nominatedNodeName is set only when this pod preempts other pods on the node."),
          new Column(
              "Readiness Gates",
              1,
              "If specified, all readiness gates will be evaluated for pod readiness."));
    }

    @Override
    void cells(ObjectNode pod, Instant now, ArrayNode cells, ObjectNode row) {
      PodStatusCells.add(pod, now, cells, row);
    }
  },
  DEPLOYMENTS("apps", "Deployment") {
    @Override
    List<Column> columns() {
      return List.of(
          new Column("Ready", 0, "Number of the pod with ready state"),
          new Column(
              "Up-to-date",
              0,
              "Total number of non-terminating pods targeted by this deployment that have the desired template spec."),
          new Column(
              "Available",
              0,
              "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment."),
          AGE,
          new Column("Containers", 1, "Names of each container in the template."),
          new Column("Images", 1, "Images referenced by each container in the template."),
          new Column("Selector", 1, "Label selector for pods."));
    }

    @Override
    void cells(ObjectNode d, Instant now, ArrayNode cells, ObjectNode row) {
      JsonNode status = d.path("status");
      cells.add(
          status.path("readyReplicas").asLong(0) + "/" + d.path("spec").path("replicas").asLong(0));
      cells.add(status.path("updatedReplicas").asLong(0));
      cells.add(status.path("availableReplicas").asLong(0));
      cells.add(age(d, now));
      List<String> names = new ArrayList<>();
      List<String> images = new ArrayList<>();
      for (JsonNode c : d.path("spec").path("template").path("spec").path("containers")) {
        names.add(c.path("name").asText());
        images.add(c.path("image").asText());
      }
      cells.add(String.join(",", names));
      cells.add(String.join(",", images));
      cells.add(CellFormats.selector(d.path("spec").path("selector")));
    }
  },
  SERVICES("", "Service") {
    @Override
    List<Column> columns() {
      return List.of(
          new Column("Type", 0, "type determines how the Service is exposed."),
          new Column(
              "Cluster-IP",
              0,
              "clusterIP is the IP address of the service and is usually assigned randomly."),
          new Column(
              "External-IP",
              0,
              "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service."),
          new Column("Port(s)", 0, "The list of ports that are exposed by this service."),
          AGE,
          new Column(
              "Selector",
              1,
              "Route service traffic to pods with label keys and values matching this selector."));
    }

    @Override
    void cells(ObjectNode s, Instant now, ArrayNode cells, ObjectNode row) {
      JsonNode spec = s.path("spec");
      String type = spec.path("type").asText("");
      cells.add(type);
      cells.add(
          spec.path("clusterIPs").isEmpty() ? "<none>" : spec.path("clusterIPs").get(0).asText());
      cells.add(CellFormats.externalIps(s, type));
      List<String> ports = new ArrayList<>();
      for (JsonNode p : spec.path("ports")) {
        String protocol = p.path("protocol").asText("");
        ports.add(
            p.path("nodePort").asInt(0) > 0
                ? p.path("port").asInt() + ":" + p.path("nodePort").asInt() + "/" + protocol
                : p.path("port").asInt() + "/" + protocol);
      }
      cells.add(ports.isEmpty() ? "<none>" : String.join(",", ports));
      cells.add(age(s, now));
      cells.add(CellFormats.labels(spec.path("selector")));
    }
  },
  NODES("", "Node") {
    @Override
    List<Column> columns() {
      return List.of(
          new Column("Status", 0, "The status of the node"),
          new Column("Roles", 0, "The roles of the node"),
          AGE,
          new Column("Version", 0, "Kubelet Version reported by the node."),
          new Column("Internal-IP", 1, "List of addresses reachable to the node."),
          new Column("External-IP", 1, "List of addresses reachable to the node."),
          new Column("OS-Image", 1, "OS Image reported by the node from /etc/os-release."),
          new Column("Kernel-Version", 1, "Kernel Version reported by the node from 'uname -r'."),
          new Column(
              "Container-Runtime",
              1,
              "ContainerRuntime Version reported by the node through runtime remote API."));
    }

    @Override
    void cells(ObjectNode n, Instant now, ArrayNode cells, ObjectNode row) {
      List<String> status = new ArrayList<>();
      for (JsonNode c : n.path("status").path("conditions")) {
        if (c.path("type").asText().equals("Ready")) {
          status.add(c.path("status").asText().equals("True") ? "Ready" : "NotReady");
        }
      }
      if (status.isEmpty()) {
        status.add("Unknown");
      }
      if (n.path("spec").path("unschedulable").asBoolean(false)) {
        status.add("SchedulingDisabled");
      }
      TreeSet<String> roles = new TreeSet<>();
      n.path("metadata")
          .path("labels")
          .properties()
          .forEach(
              e -> {
                String key = e.getKey();
                if (key.startsWith(ROLE_PREFIX) && key.length() > ROLE_PREFIX.length()) {
                  roles.add(key.substring(ROLE_PREFIX.length()));
                } else if (key.equals("kubernetes.io/role") && !e.getValue().asText().isEmpty()) {
                  roles.add(e.getValue().asText());
                }
              });
      JsonNode info = n.path("status").path("nodeInfo");
      cells.add(String.join(",", status));
      cells.add(roles.isEmpty() ? "<none>" : String.join(",", roles));
      cells.add(age(n, now));
      cells.add(info.path("kubeletVersion").asText(""));
      cells.add(CellFormats.address(n, "InternalIP"));
      cells.add(CellFormats.address(n, "ExternalIP"));
      for (String field : List.of("osImage", "kernelVersion", "containerRuntimeVersion")) {
        String value = info.path(field).asText("");
        cells.add(value.isEmpty() ? "<unknown>" : value);
      }
    }
  };

  private static final String ROLE_PREFIX = "node-role.kubernetes.io/";
  private static final Column AGE =
      new Column(
          "Age",
          0,
          "CreationTimestamp is a timestamp representing the server time when this object was"
              + " created.");

  /** A column after Name: all are of type {@code string} with no format, as on the server. */
  record Column(String name, int priority, String description) {}

  private final String group;
  private final String kind;

  BuiltinTables(String group, String kind) {
    this.group = group;
    this.kind = kind;
  }

  abstract List<Column> columns();

  /** Adds the cells after the name to {@code cells}; may set the row's {@code conditions}. */
  abstract void cells(ObjectNode object, Instant now, ArrayNode cells, ObjectNode row);

  /** The computed printer of a built-in type, if it has one. */
  static Optional<BuiltinTables> of(ResourceType type) {
    for (BuiltinTables printer : values()) {
      if (!type.custom()
          && printer.group.equals(type.group())
          && printer.kind.equals(type.kind())) {
        return Optional.of(printer);
      }
    }
    return Optional.empty();
  }

  static String age(JsonNode object, Instant now) {
    return Tables.age(object.path("metadata").path("creationTimestamp").asText(""), now);
  }
}
