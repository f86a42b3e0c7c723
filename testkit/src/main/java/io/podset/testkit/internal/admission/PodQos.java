package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod's QoS class as {@code qos.ComputePodQOS} of Kubernetes 1.34 computes it from the cpu and
 * memory of its containers and init containers: {@code BestEffort} without any positive request or
 * limit, {@code Guaranteed} when every container limits both and the summed requests equal the
 * summed limits, else {@code Burstable}. Pod-level {@code spec.resources} (PodLevelResources, on by
 * default in 1.34) take the containers' place when present.
 */
final class PodQos {

  private static final Set<String> COMPUTE = Set.of("cpu", "memory");

  private PodQos() {}

  static String of(JsonNode spec) {
    Map<String, BigDecimal> requests = new HashMap<>();
    Map<String, BigDecimal> limits = new HashMap<>();
    boolean guaranteed = true;
    JsonNode podLevel = spec.path("resources");
    List<JsonNode> sources = new java.util.ArrayList<>();
    if (podLevel.isObject()) {
      sources.add(podLevel);
    } else {
      for (String list : List.of("containers", "initContainers")) {
        spec.path(list).forEach(c -> sources.add(c.path("resources")));
      }
    }
    for (JsonNode resources : sources) {
      add(requests, resources.path("requests"));
      Set<String> limited = add(limits, resources.path("limits"));
      if (!limited.containsAll(COMPUTE)) {
        guaranteed = false;
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return "BestEffort";
    }
    if (guaranteed) {
      for (Map.Entry<String, BigDecimal> e : requests.entrySet()) {
        BigDecimal limit = limits.get(e.getKey());
        if (limit == null || limit.compareTo(e.getValue()) != 0) {
          guaranteed = false;
        }
      }
    }
    return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
  }

  // Adds the positive cpu and memory quantities of a resource list; returns their names.
  private static Set<String> add(Map<String, BigDecimal> totals, JsonNode list) {
    Set<String> found = new HashSet<>();
    list.properties()
        .forEach(
            e -> {
              BigDecimal value = Quantities.value(e.getValue().asText());
              if (COMPUTE.contains(e.getKey()) && value != null && value.signum() > 0) {
                found.add(e.getKey());
                totals.merge(e.getKey(), value, BigDecimal::add);
              }
            });
    return found;
  }
}
