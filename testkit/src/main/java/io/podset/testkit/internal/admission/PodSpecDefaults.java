package io.podset.testkit.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.util.List;
import java.util.Map;

/**
 * The defaults Kubernetes 1.34 gives every pod spec, in a pod and in the pod templates of workloads
 * (core/v1 {@code SetDefaults_PodSpec}, {@code _Container}, {@code _Probe}, {@code _Volume} and
 * friends): restart and DNS policy, scheduler, grace period, an empty security context; per
 * container the pull policy, termination message fields, an empty {@code resources}, {@code TCP}
 * ports, probe timings and HTTP probe paths; volume modes. Resource quantities are written in
 * canonical form. What only pods get (requests from limits, service links, admission's tolerations
 * and priority) is in {@link PodRules}.
 */
final class PodSpecDefaults {

  private static final List<String> CONTAINER_LISTS =
      List.of("initContainers", "containers", "ephemeralContainers");
  private static final Map<String, String> VOLUME_MODES =
      Map.of("secret", "defaultMode", "configMap", "defaultMode", "downwardAPI", "defaultMode");

  private PodSpecDefaults() {}

  /** Fills the defaults into {@code spec} (a pod's or a template's). */
  static void apply(ObjectNode spec) {
    putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    putIfAbsent(spec, "restartPolicy", "Always");
    if (!(spec.get("securityContext") instanceof ObjectNode)) {
      spec.putObject("securityContext");
    }
    if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
      spec.put("terminationGracePeriodSeconds", 30);
    }
    putIfAbsent(spec, "schedulerName", "default-scheduler");
    for (ObjectNode container : containers(spec)) {
      container(container);
    }
    if (spec.path("hostNetwork").asBoolean(false)) {
      for (ObjectNode container : containers(spec)) {
        for (JsonNode port : container.path("ports")) {
          if (port instanceof ObjectNode p && p.path("hostPort").asInt(0) == 0) {
            p.set("hostPort", p.path("containerPort"));
          }
        }
      }
    }
    for (JsonNode v : spec.path("volumes")) {
      if (v instanceof ObjectNode volume) {
        volume(volume);
      }
    }
    if (spec.get("overhead") instanceof ObjectNode overhead) {
      canonicalQuantities(overhead);
    }
  }

  /** The containers of every kind (init, app, ephemeral) of a pod spec. */
  static List<ObjectNode> containers(JsonNode spec) {
    List<ObjectNode> all = new java.util.ArrayList<>();
    for (String list : CONTAINER_LISTS) {
      for (JsonNode c : spec.path(list)) {
        if (c instanceof ObjectNode container) {
          all.add(container);
        }
      }
    }
    return all;
  }

  private static void container(ObjectNode container) {
    putIfAbsent(container, "imagePullPolicy", pullPolicy(container.path("image").asText("")));
    putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
    putIfAbsent(container, "terminationMessagePolicy", "File");
    ObjectNode resources = Json.child(container, "resources");
    for (String list : List.of("limits", "requests")) {
      if (resources.get(list) instanceof ObjectNode quantities) {
        canonicalQuantities(quantities);
      }
    }
    for (JsonNode port : container.path("ports")) {
      if (port instanceof ObjectNode p) {
        putIfAbsent(p, "protocol", "TCP");
      }
    }
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      if (container.get(probe) instanceof ObjectNode p) {
        probe(p);
      }
    }
    if (container.get("lifecycle") instanceof ObjectNode lifecycle) {
      for (String hook : List.of("postStart", "preStop")) {
        if (lifecycle.path(hook).get("httpGet") instanceof ObjectNode get) {
          httpGet(get);
        }
      }
    }
    for (JsonNode env : container.path("env")) {
      if (env.path("valueFrom").get("fieldRef") instanceof ObjectNode ref) {
        putIfAbsent(ref, "apiVersion", "v1");
      }
    }
  }

  /**
   * {@code Always} for the tag {@code latest} (also when no tag and no digest is given), else
   * {@code IfNotPresent}, as {@code parsers.ParseImageName} reads an image reference.
   */
  static String pullPolicy(String image) {
    String reference = image;
    int at = reference.indexOf('@');
    boolean digest = at >= 0;
    if (digest) {
      reference = reference.substring(0, at);
    }
    int slash = reference.lastIndexOf('/');
    int colon = reference.lastIndexOf(':');
    String tag = colon > slash ? reference.substring(colon + 1) : "";
    if (tag.isEmpty() && !digest) {
      tag = "latest";
    }
    return tag.equals("latest") ? "Always" : "IfNotPresent";
  }

  private static void probe(ObjectNode probe) {
    putIfZero(probe, "timeoutSeconds", 1);
    putIfZero(probe, "periodSeconds", 10);
    putIfZero(probe, "successThreshold", 1);
    putIfZero(probe, "failureThreshold", 3);
    if (probe.get("httpGet") instanceof ObjectNode get) {
      httpGet(get);
    }
  }

  private static void httpGet(ObjectNode get) {
    putIfAbsent(get, "path", "/");
    putIfAbsent(get, "scheme", "HTTP");
  }

  private static void volume(ObjectNode volume) {
    boolean hasSource = false;
    for (Map.Entry<String, JsonNode> e : volume.properties()) {
      if (!e.getKey().equals("name") && !e.getValue().isNull()) {
        hasSource = true;
      }
    }
    if (!hasSource) {
      volume.putObject("emptyDir");
    }
    VOLUME_MODES.forEach(
        (source, mode) -> {
          if (volume.get(source) instanceof ObjectNode s && !s.hasNonNull(mode)) {
            s.put(mode, 420);
          }
        });
    if (volume.get("projected") instanceof ObjectNode projected) {
      if (!projected.hasNonNull("defaultMode")) {
        projected.put("defaultMode", 420);
      }
      for (JsonNode source : projected.path("sources")) {
        if (source.get("serviceAccountToken") instanceof ObjectNode token
            && !token.hasNonNull("expirationSeconds")) {
          token.put("expirationSeconds", 3600);
        }
      }
    }
    if (volume.get("hostPath") instanceof ObjectNode hostPath) {
      putIfAbsent(hostPath, "type", "");
    }
  }

  /** Rewrites every quantity of a resource list in canonical form. */
  static void canonicalQuantities(ObjectNode list) {
    List<String> names = new java.util.ArrayList<>();
    list.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode value = list.get(name);
      if (value.isTextual() || value.isNumber()) {
        list.put(name, Quantities.canonical(value.asText()));
      }
    }
  }

  static void putIfAbsent(ObjectNode node, String field, String value) {
    if (!node.hasNonNull(field) || node.path(field).asText().isEmpty()) {
      node.put(field, value);
    }
  }

  private static void putIfZero(ObjectNode node, String field, int value) {
    if (node.path(field).asInt(0) == 0) {
      node.put(field, value);
    }
  }
}
