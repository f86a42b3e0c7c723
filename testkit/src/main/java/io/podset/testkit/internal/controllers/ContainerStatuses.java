package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The status of one container as the simulated kubelet writes it: a new one (image id and container
 * id derived from the image and the time), one crashed in CrashLoopBackOff, one restarted on a new
 * image, a terminated state. Apart from {@code created}, each method changes the status it is
 * given, under the store's lock.
 */
final class ContainerStatuses {

  private ContainerStatuses() {}

  /** A container killed for an image change and started again on {@code image}. */
  static void restartedOn(ObjectNode s, String image, String time) {
    String startedAt = s.path("state").path("running").path("startedAt").asText(time);
    terminated(s.putObject("lastState"), 137, "Error", startedAt, time);
    s.put("image", image);
    s.put("imageID", "sha256:" + sha256(image));
    s.put("containerID", "containerd://" + sha256(s.path("name").asText() + image + time));
    s.put("restartCount", s.path("restartCount").asInt() + 1);
    s.put("started", true);
    s.putObject("state").putObject("running").put("startedAt", time);
  }

  /** A new container status: not ready, no restarts, ids derived from the image and the time. */
  static ObjectNode created(JsonNode container, String time) {
    String image = container.path("image").asText("");
    ObjectNode s = Json.object();
    s.put("name", container.path("name").asText());
    s.put("image", image);
    s.put("imageID", "sha256:" + sha256(image));
    s.put("containerID", "containerd://" + sha256(container.path("name").asText() + time));
    s.put("ready", false);
    s.put("restartCount", 0);
    return s;
  }

  static void crashed(ObjectNode s, int restarts, String time) {
    s.put("ready", false);
    s.put("started", false);
    s.put("restartCount", restarts);
    ObjectNode waiting = s.putObject("state").putObject("waiting");
    waiting.put("reason", "CrashLoopBackOff");
    waiting.put(
        "message", "back-off restarting failed container " + s.path("name").asText() + " (exit 1)");
    terminated(s.putObject("lastState"), 1, "Error", time, time);
  }

  private static String sha256(String value) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** Sets {@code terminated} in a container's {@code state} or {@code lastState}. */
  static void terminated(
      ObjectNode state, int exitCode, String reason, String startedAt, String finishedAt) {
    ObjectNode terminated = state.putObject("terminated");
    terminated.put("exitCode", exitCode);
    terminated.put("reason", reason);
    terminated.put("startedAt", startedAt);
    terminated.put("finishedAt", finishedAt);
  }
}
