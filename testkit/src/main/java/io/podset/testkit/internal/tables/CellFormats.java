package io.podset.testkit.internal.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Cells as kube-apiserver's printers format them: labels and label selectors, a Service's external
 * IPs, a node's addresses.
 */
final class CellFormats {

  private CellFormats() {}

  /** {@code labels.FormatLabels}: sorted {@code k=v} pairs, or {@code <none>}. */
  static String labels(JsonNode map) {
    List<String> pairs = new ArrayList<>();
    new TreeMap<String, String>(
            Json.MAPPER.convertValue(map.isObject() ? map : Json.object(), Map.class))
        .forEach((k, v) -> pairs.add(k + "=" + v));
    return pairs.isEmpty() ? "<none>" : String.join(",", pairs);
  }

  /** A label selector as {@code labels.Selector.String()} writes it, requirements sorted by key. */
  static String selector(JsonNode selector) {
    TreeMap<String, List<String>> byKey = new TreeMap<>();
    selector
        .path("matchLabels")
        .properties()
        .forEach(
            e ->
                byKey
                    .computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                    .add(e.getKey() + "=" + e.getValue().asText()));
    for (JsonNode r : selector.path("matchExpressions")) {
      String key = r.path("key").asText();
      TreeSet<String> values = new TreeSet<>();
      r.path("values").forEach(v -> values.add(v.asText()));
      String text =
          switch (r.path("operator").asText()) {
            case "In" -> key + " in (" + String.join(",", values) + ")";
            case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
            case "Exists" -> key;
            case "DoesNotExist" -> "!" + key;
            default -> "<invalid>";
          };
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(text);
    }
    List<String> parts = new ArrayList<>();
    byKey.values().forEach(parts::addAll);
    return String.join(",", parts);
  }

  /** A Service's EXTERNAL-IP cell: external IPs, load balancer ingress, or the external name. */
  static String externalIps(ObjectNode s, String type) {
    List<String> external = new ArrayList<>();
    s.path("spec").path("externalIPs").forEach(ip -> external.add(ip.asText()));
    switch (type) {
      case "ClusterIP", "NodePort" -> {
        return external.isEmpty() ? "<none>" : String.join(",", external);
      }
      case "LoadBalancer" -> {
        TreeSet<String> balancers = new TreeSet<>();
        for (JsonNode ingress : s.path("status").path("loadBalancer").path("ingress")) {
          String ip = ingress.path("ip").asText("");
          String host = ingress.path("hostname").asText("");
          if (!ip.isEmpty()) {
            balancers.add(ip);
          } else if (!host.isEmpty()) {
            balancers.add(host);
          }
        }
        List<String> all = new ArrayList<>(balancers);
        all.addAll(external);
        return all.isEmpty() ? "<pending>" : String.join(",", all);
      }
      case "ExternalName" -> {
        return s.path("spec").path("externalName").asText("");
      }
      default -> {
        return "<unknown>";
      }
    }
  }

  /** A node's first address of {@code type}, or {@code <none>}. */
  static String address(ObjectNode n, String type) {
    for (JsonNode a : n.path("status").path("addresses")) {
      if (a.path("type").asText().equals(type)) {
        return a.path("address").asText();
      }
    }
    return "<none>";
  }
}
