package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.NameRule;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.resource.TypeRules;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Services as Kubernetes 1.34 writes them: the defaults of core/v1 {@code SetDefaults_Service}
 * (type, session affinity, port protocol and target port, traffic policies, load balancer node
 * ports), a cluster IP and node ports allocated by {@link ServiceAddresses} (422 for one already in
 * use), the IP families of a single-stack IPv4 cluster, allocated values kept by an update that
 * leaves them out (a changed cluster IP is a 422), and an empty load balancer status; names on
 * every port of a multi-port Service; DNS-1123 label names.
 */
public final class ServiceRules implements TypeRules {

  private final ServiceAddresses addresses;

  public ServiceRules(ServiceAddresses addresses) {
    this.addresses = Objects.requireNonNull(addresses, "addresses");
  }

  @Override
  public NameRule nameRule() {
    return NameRule.LABEL;
  }

  @Override
  public void applyDefaults(ObjectNode service) {
    ObjectNode spec = Json.child(service, "spec");
    PodSpecDefaults.putIfAbsent(spec, "sessionAffinity", "None");
    String affinity = spec.path("sessionAffinity").asText();
    if (affinity.equals("None")) {
      spec.remove("sessionAffinityConfig");
    } else if (affinity.equals("ClientIP")
        && spec.path("sessionAffinityConfig")
            .path("clientIP")
            .path("timeoutSeconds")
            .isMissingNode()) {
      Json.child(Json.child(spec, "sessionAffinityConfig"), "clientIP")
          .put("timeoutSeconds", 10800);
    }
    PodSpecDefaults.putIfAbsent(spec, "type", "ClusterIP");
    String type = spec.path("type").asText();
    for (JsonNode p : spec.path("ports")) {
      if (p instanceof ObjectNode port) {
        PodSpecDefaults.putIfAbsent(port, "protocol", "TCP");
        JsonNode target = port.path("targetPort");
        if (target.isMissingNode()
            || target.isNull()
            || target.asText().isEmpty()
            || (target.isNumber() && target.asInt() == 0)) {
          port.set("targetPort", port.path("port"));
        }
      }
    }
    boolean external =
        type.equals("NodePort")
            || type.equals("LoadBalancer")
            || (type.equals("ClusterIP") && !spec.path("externalIPs").isEmpty());
    if (external) {
      PodSpecDefaults.putIfAbsent(spec, "externalTrafficPolicy", "Cluster");
    }
    if (List.of("ClusterIP", "NodePort", "LoadBalancer").contains(type)) {
      PodSpecDefaults.putIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    if (type.equals("LoadBalancer") && !spec.hasNonNull("allocateLoadBalancerNodePorts")) {
      spec.put("allocateLoadBalancerNodePorts", true);
    }
    Json.child(Json.child(service, "status"), "loadBalancer");
  }

  @Override
  public void validate(ObjectNode service, List<StatusError.Cause> causes) {
    JsonNode ports = service.path("spec").path("ports");
    for (int i = 0; ports.size() > 1 && i < ports.size(); i++) {
      if (ports.get(i).path("name").asText("").isEmpty()) {
        causes.add(
            new StatusError.Cause(
                "FieldValueRequired", "spec.ports[" + i + "].name", "Required value"));
      }
    }
  }

  @Override
  public void prepareForCreate(ObjectNode service) {
    allocate(service, null);
  }

  @Override
  public void prepareForUpdate(ObjectNode current, ObjectNode next) {
    ObjectNode spec = Json.child(next, "spec");
    JsonNode old = current.path("spec");
    if (!type(old).equals("ExternalName") && !type(spec).equals("ExternalName")) {
      for (String field : List.of("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy")) {
        if (spec.path(field).asText("").isEmpty() && spec.path(field).isEmpty() && old.has(field)) {
          spec.set(field, old.get(field).deepCopy());
        }
      }
      String was = old.path("clusterIP").asText("");
      String now = spec.path("clusterIP").asText("");
      if (!was.isEmpty() && !now.equals(was)) {
        throw StatusError.invalid(
            "",
            "Service",
            Json.name(current),
            List.of(
                new StatusError.Cause(
                    "FieldValueInvalid",
                    "spec.clusterIPs[0]",
                    "Invalid value: [\"" + now + "\"]: may not change once set")));
      }
    }
    if (needsNodePorts(old) && needsNodePorts(spec)) {
      // As patchAllocatedValues: a port left without a node port keeps the one its name had.
      Map<String, Integer> byName = new HashMap<>();
      for (JsonNode port : old.path("ports")) {
        byName.put(port.path("name").asText(""), port.path("nodePort").asInt(0));
      }
      Set<Integer> kept = nodePorts(spec);
      for (JsonNode p : spec.path("ports")) {
        Integer previous = byName.get(p.path("name").asText(""));
        if (p instanceof ObjectNode port
            && port.path("nodePort").asInt(0) == 0
            && previous != null
            && previous > 0
            && !kept.contains(previous)) {
          port.put("nodePort", previous);
        }
      }
    }
    allocate(next, ObjectStore.key(Json.namespace(current), Json.name(current)));
  }

  // Cluster IP, IP families and node ports of a Service being created or updated.
  private void allocate(ObjectNode service, String key) {
    ObjectNode spec = Json.child(service, "spec");
    String type = type(spec);
    String name = Json.name(service);
    if (type.equals("ExternalName")) {
      return;
    }
    String ip = spec.path("clusterIP").asText("");
    if (ip.isEmpty() && !spec.path("clusterIPs").isEmpty()) {
      ip = spec.path("clusterIPs").get(0).asText("");
    }
    if (ip.isEmpty()) {
      ip = addresses.allocateIp();
    } else if (!ip.equals("None") && addresses.usedIps(key).contains(ip)) {
      throw invalid(
          name,
          "spec.clusterIPs",
          "Invalid value: [\""
              + ip
              + "\"]: failed to allocate IP "
              + ip
              + ": provided IP is already allocated");
    }
    spec.put("clusterIP", ip);
    if (spec.path("clusterIPs").isEmpty()) {
      spec.putArray("clusterIPs").add(ip);
    }
    boolean dual = ip.equals("None") && spec.path("selector").isEmpty();
    if (spec.path("ipFamilies").isEmpty()) {
      ArrayNode families = spec.putArray("ipFamilies").add("IPv4");
      if (dual) {
        families.add("IPv6");
      }
    }
    PodSpecDefaults.putIfAbsent(spec, "ipFamilyPolicy", dual ? "RequireDualStack" : "SingleStack");
    if (!needsNodePorts(spec)) {
      return;
    }
    Set<Integer> used = addresses.usedNodePorts(key);
    Set<Integer> mine = new HashSet<>();
    JsonNode ports = spec.path("ports");
    for (int i = 0; i < ports.size(); i++) {
      int port = ports.get(i).path("nodePort").asInt(0);
      if (port > 0 && (used.contains(port) || !mine.add(port))) {
        throw invalid(
            name,
            "spec.ports[" + i + "].nodePort",
            "Invalid value: " + port + ": provided port is already allocated");
      }
    }
    for (JsonNode p : ports) {
      if (p instanceof ObjectNode port && port.path("nodePort").asInt(0) == 0) {
        int allocated = addresses.allocateNodePort(mine);
        mine.add(allocated);
        port.put("nodePort", allocated);
      }
    }
    if (type.equals("LoadBalancer")
        && spec.path("externalTrafficPolicy").asText("").equals("Local")
        && spec.path("healthCheckNodePort").asInt(0) == 0) {
      spec.put("healthCheckNodePort", addresses.allocateNodePort(mine));
    }
  }

  private static String type(JsonNode spec) {
    return spec.path("type").asText("").isEmpty() ? "ClusterIP" : spec.path("type").asText();
  }

  private static boolean needsNodePorts(JsonNode spec) {
    String type = type(spec);
    return type.equals("NodePort")
        || (type.equals("LoadBalancer")
            && spec.path("allocateLoadBalancerNodePorts").asBoolean(true));
  }

  private static Set<Integer> nodePorts(JsonNode spec) {
    Set<Integer> ports = new HashSet<>();
    for (JsonNode port : spec.path("ports")) {
      if (port.path("nodePort").asInt(0) > 0) {
        ports.add(port.path("nodePort").asInt());
      }
    }
    return ports;
  }

  private static StatusError invalid(String name, String field, String message) {
    return StatusError.invalid(
        "", "Service", name, List.of(new StatusError.Cause("FieldValueInvalid", field, message)));
  }
}
