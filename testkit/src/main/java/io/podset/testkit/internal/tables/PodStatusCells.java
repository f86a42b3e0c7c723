package io.podset.testkit.internal.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A pod's table cells as kube-apiserver's {@code printPod} computes them: READY counts ready
 * containers (and started sidecars) of all containers plus restartable init containers; STATUS is
 * the phase or reason, replaced by the first unfinished init container's ({@code Init:0/2}, {@code
 * Init:CrashLoopBackOff}), then by a container's waiting or terminated reason, {@code Terminating}
 * while deleting; RESTARTS sums restart counts, with the last restart's age; then IP, node,
 * nominated node and readiness gates. Succeeded and failed pods get the row condition that lets
 * kubectl tell completed pods.
 */
final class PodStatusCells {

  private PodStatusCells() {}

  static void add(ObjectNode pod, Instant now, ArrayNode cells, ObjectNode row) {
    JsonNode spec = pod.path("spec");
    JsonNode status = pod.path("status");
    String phase = status.path("phase").asText("");
    String reason =
        status.path("reason").asText("").isEmpty() ? phase : status.path("reason").asText();
    for (JsonNode c : status.path("conditions")) {
      if (c.path("type").asText().equals("PodScheduled")
          && c.path("reason").asText().equals("SchedulingGated")) {
        reason = "SchedulingGated";
      }
    }
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      ObjectNode condition = row.putArray("conditions").addObject();
      condition.put("type", "Completed");
      condition.put("status", "True");
      condition.put("reason", phase);
      condition.put(
          "message",
          phase.equals("Succeeded")
              ? "The pod has completed successfully."
              : "The pod has failed.");
    }
    int total = spec.path("containers").size();
    Map<String, Boolean> sidecars = new HashMap<>();
    for (JsonNode c : spec.path("initContainers")) {
      boolean sidecar = c.path("restartPolicy").asText("").equals("Always");
      sidecars.put(c.path("name").asText(), sidecar);
      if (sidecar) {
        total++;
      }
    }
    int ready = 0;
    int restarts = 0;
    int sidecarRestarts = 0;
    Instant lastRestart = null;
    Instant lastSidecarRestart = null;
    boolean initializing = false;
    JsonNode initStatuses = status.path("initContainerStatuses");
    for (int i = 0; i < initStatuses.size(); i++) {
      JsonNode c = initStatuses.get(i);
      boolean sidecar = sidecars.getOrDefault(c.path("name").asText(), false);
      restarts += c.path("restartCount").asInt(0);
      Instant finished = finishedAt(c);
      lastRestart = later(lastRestart, finished);
      if (sidecar) {
        sidecarRestarts += c.path("restartCount").asInt(0);
        lastSidecarRestart = later(lastSidecarRestart, finished);
      }
      JsonNode terminated = c.path("state").path("terminated");
      JsonNode waiting = c.path("state").path("waiting");
      if (terminated.isObject() && terminated.path("exitCode").asInt(0) == 0) {
        continue;
      }
      if (sidecar && c.path("started").asBoolean(false)) {
        if (c.path("ready").asBoolean(false)) {
          ready++;
        }
        continue;
      }
      if (terminated.isObject()) {
        reason =
            terminated.path("reason").asText("").isEmpty()
                ? (terminated.path("signal").asInt(0) != 0
                    ? "Init:Signal:" + terminated.path("signal").asInt()
                    : "Init:ExitCode:" + terminated.path("exitCode").asInt())
                : "Init:" + terminated.path("reason").asText();
      } else if (!waiting.path("reason").asText("").isEmpty()
          && !waiting.path("reason").asText().equals("PodInitializing")) {
        reason = "Init:" + waiting.path("reason").asText();
      } else {
        reason = "Init:" + i + "/" + spec.path("initContainers").size();
      }
      initializing = true;
      break;
    }
    if (!initializing || conditionTrue(status, "Initialized")) {
      restarts = sidecarRestarts;
      lastRestart = lastSidecarRestart;
      boolean running = false;
      JsonNode statuses = status.path("containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        JsonNode c = statuses.get(i);
        restarts += c.path("restartCount").asInt(0);
        lastRestart = later(lastRestart, finishedAt(c));
        JsonNode state = c.path("state");
        String waiting = state.path("waiting").path("reason").asText("");
        JsonNode terminated = state.path("terminated");
        if (!waiting.isEmpty()) {
          reason = waiting;
        } else if (terminated.isObject() && !terminated.path("reason").asText("").isEmpty()) {
          reason = terminated.path("reason").asText();
        } else if (terminated.isObject()) {
          reason =
              terminated.path("signal").asInt(0) != 0
                  ? "Signal:" + terminated.path("signal").asInt()
                  : "ExitCode:" + terminated.path("exitCode").asInt();
        } else if (c.path("ready").asBoolean(false) && state.path("running").isObject()) {
          running = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && running) {
        reason = conditionTrue(status, "Ready") ? "Running" : "NotReady";
      }
    }
    boolean deleting = !pod.path("metadata").path("deletionTimestamp").asText("").isEmpty();
    if (deleting && status.path("reason").asText("").equals("NodeLost")) {
      reason = "Unknown";
    } else if (deleting && !phase.equals("Succeeded") && !phase.equals("Failed")) {
      reason = "Terminating";
    }
    cells.add(ready + "/" + total);
    cells.add(reason);
    cells.add(
        restarts != 0 && lastRestart != null
            ? restarts + " (" + Tables.age(lastRestart.toString(), now) + " ago)"
            : Integer.toString(restarts));
    cells.add(BuiltinTables.age(pod, now));
    JsonNode ips = status.path("podIPs");
    String ip = ips.isEmpty() ? "" : ips.get(0).path("ip").asText("");
    cells.add(ip.isEmpty() ? "<none>" : ip);
    cells.add(orNone(spec.path("nodeName").asText("")));
    cells.add(orNone(status.path("nominatedNodeName").asText("")));
    JsonNode gates = spec.path("readinessGates");
    if (gates.isEmpty()) {
      cells.add("<none>");
    } else {
      int met = 0;
      for (JsonNode gate : gates) {
        if (conditionTrue(status, gate.path("conditionType").asText())) {
          met++;
        }
      }
      cells.add(met + "/" + gates.size());
    }
  }

  private static boolean conditionTrue(JsonNode status, String type) {
    for (JsonNode c : status.path("conditions")) {
      if (c.path("type").asText().equals(type)) {
        return c.path("status").asText().equals("True");
      }
    }
    return false;
  }

  private static Instant finishedAt(JsonNode containerStatus) {
    String at = containerStatus.path("lastState").path("terminated").path("finishedAt").asText("");
    try {
      return at.isEmpty() ? null : Instant.parse(at);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  private static Instant later(Instant a, Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
  }

  private static String orNone(String value) {
    return value.isEmpty() ? "<none>" : value;
  }
}
