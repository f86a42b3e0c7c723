package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.SimulatedKubelet.PodFate;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pod status the simulated kubelet writes at each stage: phase, host and pod IPs, conditions (a
 * {@code lastTransitionTime} kept while a condition's status stays), and container statuses with
 * their states, restart counts and image ids. Each method changes the pod it is given (a copy the
 * kubelet owns), under the store's lock.
 */
final class PodStatuses {

  private static final String HOST_IP = "172.18.0.2";

  private PodStatuses() {}

  /**
   * A copy of {@code pod} after {@code stage} (not TERMINATE, which is a delete), for a pod of
   * {@code fate} that restarted {@code restarts} times, on node {@code nodeName}, with {@code ip}
   * for a START.
   */
  static ObjectNode after(
      PodStage stage,
      ObjectNode pod,
      PodFate fate,
      int restarts,
      String nodeName,
      Instant now,
      String ip) {
    ObjectNode next = pod.deepCopy();
    ObjectNode status = Json.child(next, "status");
    String time = ObjectMeta.timestamp(now);
    switch (stage) {
      case SCHEDULE -> {
        if (fate == PodFate.UNSCHEDULABLE) {
          unschedulable(status, time);
        } else {
          scheduled(next, status, nodeName, time);
        }
      }
      case START -> {
        if (!bound(next)) {
          Json.child(next, "spec").put("nodeName", nodeName);
        }
        started(next, status, fate, restarts, time, ip);
      }
      case READY -> ready(next, status, time);
      case UNREADY -> setReady(next, status, false, time);
      case CRASH -> crashLooping(next, status, restarts, time);
      case RESTART -> restartedOnNewImages(next, status, time);
      case TERMINATE -> throw new IllegalStateException("termination is a delete");
    }
    return next;
  }

  /** Whether the pod is bound to a node. */
  static boolean bound(JsonNode pod) {
    String node = Json.text(pod, "spec.nodeName");
    return node != null && !node.isEmpty();
  }

  /** Left unscheduled: {@code PodScheduled=False}, reason Unschedulable. */
  private static void unschedulable(ObjectNode status, String time) {
    condition(status, "PodScheduled", false, "Unschedulable", time)
        .put(
            "message",
            "0/1 nodes are available: the testkit's simulated kubelet leaves this pod"
                + " unscheduled.");
  }

  /** Bound to {@code nodeName}: {@code PodScheduled=True}. */
  private static void scheduled(ObjectNode pod, ObjectNode status, String nodeName, String time) {
    Json.child(pod, "spec").put("nodeName", nodeName);
    condition(status, "PodScheduled", true, null, time);
  }

  /** Ready: phase Running, every container running and ready. */
  private static void ready(ObjectNode pod, ObjectNode status, String time) {
    status.put("phase", "Running");
    status.remove("reason");
    for (JsonNode c : status.path("containerStatuses")) {
      ObjectNode container = (ObjectNode) c;
      if (!container.path("state").has("running")) {
        container.put("started", true);
        container.putObject("state").putObject("running").put("startedAt", time);
      }
    }
    setReady(pod, status, true, time);
  }

  /** Crashed again: every container waiting in CrashLoopBackOff after {@code restarts}. */
  private static void crashLooping(ObjectNode pod, ObjectNode status, int restarts, String time) {
    for (JsonNode c : status.path("containerStatuses")) {
      ContainerStatuses.crashed((ObjectNode) c, restarts, time);
    }
    setReady(pod, status, false, time);
  }

  /** The containers whose spec names a new image restarted on it; the pod not ready meanwhile. */
  private static void restartedOnNewImages(ObjectNode pod, ObjectNode status, String time) {
    for (JsonNode c : status.path("containerStatuses")) {
      ObjectNode container = (ObjectNode) c;
      String image = specImage(pod, container.path("name").asText());
      if (image != null && !image.equals(container.path("image").asText())) {
        ContainerStatuses.restartedOn(container, image, time);
      }
    }
    setReady(pod, status, false, time);
  }

  /** Whether a running container's spec names another image than the one it runs. */
  static boolean imageChanged(ObjectNode pod) {
    String phase = Json.text(pod, "status.phase");
    if (!"Running".equals(phase)) {
      return false;
    }
    for (JsonNode s : pod.path("status").path("containerStatuses")) {
      String image = specImage(pod, s.path("name").asText());
      if (image != null && !image.equals(s.path("image").asText())) {
        return true;
      }
    }
    return false;
  }

  private static String specImage(JsonNode pod, String container) {
    for (JsonNode c : pod.path("spec").path("containers")) {
      if (container.equals(c.path("name").asText())) {
        return c.path("image").asText("");
      }
    }
    return null;
  }

  /**
   * Started: phase Running (Failed for a failing pod), host and pod IP, init containers completed,
   * containers running (terminated for a failing pod, crashed for a crash-looping one).
   */
  private static void started(
      ObjectNode pod, ObjectNode status, PodFate fate, int restarts, String time, String ip) {
    boolean failed = fate == PodFate.FAIL;
    status.put("phase", failed ? "Failed" : "Running");
    status.put("hostIP", HOST_IP);
    status.putArray("hostIPs").addObject().put("ip", HOST_IP);
    if (!status.hasNonNull("podIP")) {
      status.put("podIP", ip);
      status.putArray("podIPs").addObject().put("ip", ip);
    }
    if (!status.hasNonNull("startTime")) {
      status.put("startTime", time);
    }
    condition(status, "PodReadyToStartContainers", !failed, null, time);
    condition(status, "Initialized", true, null, time);
    condition(status, "PodScheduled", true, null, time);
    List<ObjectNode> initStatuses = new ArrayList<>();
    for (JsonNode c : pod.path("spec").path("initContainers")) {
      ObjectNode s = ContainerStatuses.created(c, time);
      s.put("ready", true);
      s.put("started", false);
      ContainerStatuses.terminated(s.putObject("state"), 0, "Completed", time, time);
      initStatuses.add(s);
    }
    if (!initStatuses.isEmpty()) {
      status.putArray("initContainerStatuses").addAll(initStatuses);
    }
    ArrayNode statuses = status.putArray("containerStatuses");
    for (JsonNode c : pod.path("spec").path("containers")) {
      ObjectNode s = ContainerStatuses.created(c, time);
      if (failed) {
        s.put("started", false);
        ContainerStatuses.terminated(s.putObject("state"), 1, "Error", time, time);
      } else if (fate == PodFate.CRASH_LOOP) {
        ContainerStatuses.crashed(s, restarts, time);
      } else {
        s.put("started", true);
        s.putObject("state").putObject("running").put("startedAt", time);
      }
      statuses.add(s);
    }
    if (failed) {
      status.put("reason", "Error");
    }
    setReady(pod, status, false, time);
  }

  private static void setReady(ObjectNode pod, ObjectNode status, boolean ready, String time) {
    String reason = ready ? null : "ContainersNotReady";
    condition(status, "Ready", ready, reason, time);
    condition(status, "ContainersReady", ready, reason, time);
    for (JsonNode c : status.path("containerStatuses")) {
      ObjectNode s = (ObjectNode) c;
      boolean running = s.path("state").has("running");
      s.put("ready", ready && running);
    }
  }

  /** Sets a condition, keeping lastTransitionTime when its status does not change. */
  private static ObjectNode condition(
      ObjectNode status, String type, boolean value, String reason, String time) {
    ArrayNode conditions =
        status.get("conditions") instanceof ArrayNode existing
            ? existing
            : status.putArray("conditions");
    String text = value ? "True" : "False";
    for (JsonNode c : conditions) {
      if (type.equals(c.path("type").asText())) {
        ObjectNode existing = (ObjectNode) c;
        if (!text.equals(existing.path("status").asText())) {
          existing.put("lastTransitionTime", time);
        }
        existing.put("status", text);
        if (reason == null) {
          existing.remove("reason");
          existing.remove("message");
        } else {
          existing.put("reason", reason);
        }
        return existing;
      }
    }
    ObjectNode c = conditions.addObject();
    c.put("type", type);
    c.put("status", text);
    c.putNull("lastProbeTime");
    c.put("lastTransitionTime", time);
    if (reason != null) {
      c.put("reason", reason);
    }
    return c;
  }
}
