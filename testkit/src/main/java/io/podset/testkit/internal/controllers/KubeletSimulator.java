package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.time.Clock;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.Registration;
import io.podset.testkit.SimulatedKubelet;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.Deletions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SimulatedKubelet}: a commit listener that notices new and deleting pods and schedules
 * their stages on the server's clock; each stage is one write to the store.
 *
 * <p>Lock order: the store's lock, then {@link #lock}, then the clock's. Stages run without {@link
 * #lock} while they write to the store.
 */
public final class KubeletSimulator implements SimulatedKubelet, ObjectStore.CommitListener {

  private static final Logger LOG = LoggerFactory.getLogger(KubeletSimulator.class);
  private static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);
  private static final String HOST_IP = "172.18.0.2";

  /** The steps of a pod's life that the kubelet writes. */
  private enum Stage {
    SCHEDULE,
    START,
    READY,
    UNREADY,
    CRASH,
    RESTART,
    TERMINATE
  }

  /** What the kubelet knows of one pod (by uid). Guarded by the simulator's lock. */
  private static final class PodState {
    final String key;
    final String uid;
    SimulatedKubelet.PodFate fate;
    boolean started;
    boolean terminating;
    String deletionTimestamp;
    int restarts;
    Clock.Cancellable pending;

    PodState(String key, String uid, SimulatedKubelet.PodFate fate) {
      this.key = key;
      this.uid = uid;
      this.fate = fate;
    }
  }

  private record FateRule(Predicate<Pod> predicate, SimulatedKubelet.PodFate fate) {}

  private final ObjectStore store;
  private final ResourceType pods;
  private final Clock clock;
  private final List<FateRule> rules = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  // Guarded by lock.
  private boolean enabled;
  // Guarded by lock.
  private KubeletOptions options;
  // Guarded by lock: uid -> state of every pod seen since enabled and not yet removed.
  private final Map<String, PodState> states = new HashMap<>();
  // Guarded by lock: the number of pod IPs handed out.
  private int addresses;

  public KubeletSimulator(
      ObjectStore store, ResourceType pods, Clock clock, KubeletOptions options) {
    this.store = Objects.requireNonNull(store, "store");
    this.pods = Objects.requireNonNull(pods, "pods");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
  }

  @Override
  public void enable(KubeletOptions newOptions) {
    Objects.requireNonNull(newOptions, "options");
    synchronized (lock) {
      this.options = newOptions;
      this.enabled = true;
    }
    // Take up the pods that exist; a commit racing with this is seen by committed() as well, and
    // the first of the two to register a uid wins.
    for (ObjectNode pod : store.list(pods.storageKey(), "", null).objects()) {
      synchronized (lock) {
        observe(pod);
      }
    }
  }

  @Override
  public void enable() {
    enable(options());
  }

  @Override
  public void disable() {
    synchronized (lock) {
      enabled = false;
      for (PodState state : states.values()) {
        cancel(state);
      }
      states.clear();
    }
  }

  @Override
  public boolean isEnabled() {
    synchronized (lock) {
      return enabled;
    }
  }

  @Override
  public KubeletOptions options() {
    synchronized (lock) {
      return options;
    }
  }

  @Override
  public Registration assign(Predicate<Pod> predicate, SimulatedKubelet.PodFate fate) {
    FateRule rule =
        new FateRule(
            Objects.requireNonNull(predicate, "predicate"), Objects.requireNonNull(fate, "fate"));
    rules.add(0, rule);
    return () -> rules.remove(rule);
  }

  @Override
  public void setFate(String namespace, String name, SimulatedKubelet.PodFate fate) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fate, "fate");
    ObjectNode pod = store.get(pods.storageKey(), ObjectStore.key(namespace, name));
    if (pod == null) {
      throw new IllegalArgumentException("no pod " + namespace + "/" + name);
    }
    Stage stage;
    PodState state;
    synchronized (lock) {
      if (!enabled) {
        throw new IllegalStateException("the simulated kubelet is disabled");
      }
      state = observe(pod);
      if (state == null || state.terminating) {
        return;
      }
      if (fate == SimulatedKubelet.PodFate.UNSCHEDULABLE && bound(pod)) {
        throw new IllegalArgumentException(
            "pod " + namespace + "/" + name + " is bound already: it cannot become unschedulable");
      }
      state.fate = fate;
      if (!state.started) {
        return;
      }
      cancel(state);
      stage =
          switch (fate) {
            case RUN -> Stage.READY;
            case NEVER_READY -> Stage.UNREADY;
            case FAIL -> Stage.START;
            case CRASH_LOOP -> Stage.CRASH;
            case UNSCHEDULABLE -> throw new IllegalStateException("unreachable");
          };
    }
    run(state, stage);
  }

  @Override
  public void committed(StoredEvent event) {
    if (!event.storageKey().equals(pods.storageKey())) {
      return;
    }
    synchronized (lock) {
      if (!enabled) {
        return;
      }
      if (event.type() == StoredEvent.Type.DELETED) {
        PodState state = states.remove(uid(event.object()));
        if (state != null) {
          cancel(state);
        }
        return;
      }
      observe(event.object());
    }
  }

  /** Registers a pod seen for the first time and schedules what comes next. Holds the lock. */
  private PodState observe(ObjectNode pod) {
    String uid = uid(pod);
    PodState state = states.get(uid);
    if (state == null) {
      state = new PodState(key(pod), uid, fateOf(pod));
      states.put(uid, state);
      String phase = Json.text(pod, "status.phase");
      if (Deletions.deleting(pod)) {
        // Handled below.
      } else if (!bound(pod)) {
        schedule(state, Stage.SCHEDULE, options.scheduleDelay());
      } else if (phase == null || phase.equals("Pending")) {
        schedule(state, Stage.START, options.startDelay());
      } else {
        state.started = true;
      }
    }
    String deletionTimestamp = Json.text(pod, "metadata.deletionTimestamp");
    if (deletionTimestamp != null && !deletionTimestamp.equals(state.deletionTimestamp)) {
      // A first DELETE, or a second one that shortened the grace period.
      state.terminating = true;
      state.deletionTimestamp = deletionTimestamp;
      Instant deadline = Instant.parse(deletionTimestamp);
      Duration remaining = Duration.between(clock.instant(), deadline);
      Duration delay =
          options.terminationDelay().filter(d -> d.compareTo(remaining) < 0).orElse(remaining);
      schedule(state, Stage.TERMINATE, delay.isNegative() ? Duration.ZERO : delay);
    } else if (!state.terminating && state.started && imageChanged(pod)) {
      // A container image patched in place: the kubelet restarts that container on the new image.
      schedule(state, Stage.RESTART, options.startDelay());
    }
    return state;
  }

  /** Whether a running container's spec names another image than the one it runs. */
  private static boolean imageChanged(ObjectNode pod) {
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

  private SimulatedKubelet.PodFate fateOf(ObjectNode pod) {
    if (!rules.isEmpty()) {
      Pod typed = Json.convert(pod, Pod.class);
      for (FateRule rule : rules) {
        if (rule.predicate().test(typed)) {
          return rule.fate();
        }
      }
    }
    String value = pod.path("metadata").path("annotations").path(FATE_KEY).asText(null);
    if (value == null) {
      value = pod.path("metadata").path("labels").path(FATE_KEY).asText(null);
    }
    if (value == null) {
      return SimulatedKubelet.PodFate.RUN;
    }
    try {
      return SimulatedKubelet.PodFate.fromValue(value);
    } catch (IllegalArgumentException e) {
      LOG.warn("Pod {}: {}; it runs normally", key(pod), e.getMessage());
      return SimulatedKubelet.PodFate.RUN;
    }
  }

  /** Schedules {@code stage} of a pod. Holds the lock. */
  private void schedule(PodState state, Stage stage, Duration delay) {
    cancel(state);
    state.pending = clock.schedule(delay, () -> run(state, stage));
  }

  private static void cancel(PodState state) {
    if (state.pending != null) {
      state.pending.cancel();
      state.pending = null;
    }
  }

  /** Runs one stage: a write to the store, then the next stage is scheduled. */
  private void run(PodState state, Stage stage) {
    KubeletOptions current;
    synchronized (lock) {
      if (!enabled || states.get(state.uid) != state) {
        return;
      }
      state.pending = null;
      current = options;
    }
    Instant now = clock.instant();
    String podIp = stage == Stage.START ? nextAddress() : null;
    try {
      store.write(
          pods.storageKey(),
          state.key,
          pod -> {
            if (pod == null || !state.uid.equals(uid(pod))) {
              return pod;
            }
            if (stage == Stage.TERMINATE) {
              return Deletions.next(pods, pod, new DeleteOptions(0L, null, null, null, false), now);
            }
            if (Deletions.deleting(pod)) {
              return pod;
            }
            return apply(pod, state, stage, current, now, podIp);
          });
    } catch (RuntimeException e) {
      LOG.warn("Simulated kubelet could not write stage {} of pod {}", stage, state.key, e);
      return;
    }
    synchronized (lock) {
      if (!enabled || states.get(state.uid) != state || state.pending != null) {
        return;
      }
      switch (stage) {
        case SCHEDULE -> {
          if (state.fate != SimulatedKubelet.PodFate.UNSCHEDULABLE) {
            schedule(state, Stage.START, current.startDelay());
          }
        }
        case START -> {
          if (state.fate == SimulatedKubelet.PodFate.RUN) {
            schedule(state, Stage.READY, current.readyDelay());
          } else if (state.fate == SimulatedKubelet.PodFate.CRASH_LOOP) {
            schedule(state, Stage.CRASH, backOff(current, state.restarts));
          }
        }
        case CRASH -> schedule(state, Stage.CRASH, backOff(current, state.restarts));
        case RESTART -> {
          if (state.fate == SimulatedKubelet.PodFate.RUN) {
            schedule(state, Stage.READY, current.readyDelay());
          } else if (state.fate == SimulatedKubelet.PodFate.CRASH_LOOP) {
            schedule(state, Stage.CRASH, backOff(current, state.restarts));
          }
        }
        case READY, UNREADY, TERMINATE -> {}
      }
    }
  }

  private static Duration backOff(KubeletOptions options, int restarts) {
    Duration delay = options.crashLoopBackOff();
    for (int i = 1; i < restarts && delay.compareTo(MAX_BACK_OFF) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : delay;
  }

  private String nextAddress() {
    synchronized (lock) {
      int n = addresses++;
      return "10.244." + (n / 250) % 256 + "." + (n % 250 + 2);
    }
  }

  /** The pod after {@code stage}; runs under the store lock. */
  private ObjectNode apply(
      ObjectNode pod,
      PodState state,
      Stage stage,
      KubeletOptions options,
      Instant now,
      String podIp) {
    ObjectNode next = pod.deepCopy();
    ObjectNode status = Json.child(next, "status");
    String time = ObjectMeta.timestamp(now);
    SimulatedKubelet.PodFate fate;
    synchronized (lock) {
      fate = state.fate;
    }
    switch (stage) {
      case SCHEDULE -> {
        if (fate == SimulatedKubelet.PodFate.UNSCHEDULABLE) {
          condition(status, "PodScheduled", false, "Unschedulable", time)
              .put(
                  "message",
                  "0/1 nodes are available: the testkit's simulated kubelet leaves this pod"
                      + " unscheduled.");
          return next;
        }
        Json.child(next, "spec").put("nodeName", options.nodeName());
        condition(status, "PodScheduled", true, null, time);
      }
      case START -> {
        if (!bound(next)) {
          Json.child(next, "spec").put("nodeName", options.nodeName());
        }
        int restarts;
        synchronized (lock) {
          state.started = true;
          if (fate == SimulatedKubelet.PodFate.CRASH_LOOP) {
            state.restarts++;
          }
          restarts = state.restarts;
        }
        start(next, status, fate, restarts, time, podIp);
      }
      case READY -> {
        status.put("phase", "Running");
        status.remove("reason");
        for (JsonNode c : status.path("containerStatuses")) {
          ObjectNode container = (ObjectNode) c;
          if (!container.path("state").has("running")) {
            container.put("started", true);
            container.putObject("state").putObject("running").put("startedAt", time);
          }
        }
        setReady(next, status, true, time);
      }
      case UNREADY -> setReady(next, status, false, time);
      case CRASH -> {
        int restarts;
        synchronized (lock) {
          restarts = ++state.restarts;
        }
        for (JsonNode c : status.path("containerStatuses")) {
          crashed((ObjectNode) c, restarts, time);
        }
        setReady(next, status, false, time);
      }
      case RESTART -> {
        for (JsonNode c : status.path("containerStatuses")) {
          ObjectNode container = (ObjectNode) c;
          String image = specImage(next, container.path("name").asText());
          if (image != null && !image.equals(container.path("image").asText())) {
            restartedOn(container, image, time);
          }
        }
        setReady(next, status, false, time);
      }
      case TERMINATE -> throw new IllegalStateException("termination is a delete");
    }
    return next;
  }

  /** A container killed for an image change and started again on {@code image}. */
  private static void restartedOn(ObjectNode s, String image, String time) {
    ObjectNode terminated = s.putObject("lastState").putObject("terminated");
    terminated.put("exitCode", 137);
    terminated.put("reason", "Error");
    terminated.put("startedAt", s.path("state").path("running").path("startedAt").asText(time));
    terminated.put("finishedAt", time);
    s.put("image", image);
    s.put("imageID", "sha256:" + sha256(image));
    s.put("containerID", "containerd://" + sha256(s.path("name").asText() + image + time));
    s.put("restartCount", s.path("restartCount").asInt() + 1);
    s.put("started", true);
    s.putObject("state").putObject("running").put("startedAt", time);
  }

  private static void start(
      ObjectNode pod,
      ObjectNode status,
      SimulatedKubelet.PodFate fate,
      int restarts,
      String time,
      String ip) {
    boolean failed = fate == SimulatedKubelet.PodFate.FAIL;
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
      ObjectNode s = containerStatus(c, time);
      s.put("ready", true);
      s.put("started", false);
      ObjectNode terminated = s.putObject("state").putObject("terminated");
      terminated.put("exitCode", 0);
      terminated.put("reason", "Completed");
      terminated.put("startedAt", time);
      terminated.put("finishedAt", time);
      initStatuses.add(s);
    }
    if (!initStatuses.isEmpty()) {
      status.putArray("initContainerStatuses").addAll(initStatuses);
    }
    ArrayNode statuses = status.putArray("containerStatuses");
    for (JsonNode c : pod.path("spec").path("containers")) {
      ObjectNode s = containerStatus(c, time);
      if (failed) {
        s.put("started", false);
        ObjectNode terminated = s.putObject("state").putObject("terminated");
        terminated.put("exitCode", 1);
        terminated.put("reason", "Error");
        terminated.put("startedAt", time);
        terminated.put("finishedAt", time);
      } else if (fate == SimulatedKubelet.PodFate.CRASH_LOOP) {
        crashed(s, restarts, time);
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

  private static ObjectNode containerStatus(JsonNode container, String time) {
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

  private static void crashed(ObjectNode s, int restarts, String time) {
    s.put("ready", false);
    s.put("started", false);
    s.put("restartCount", restarts);
    ObjectNode waiting = s.putObject("state").putObject("waiting");
    waiting.put("reason", "CrashLoopBackOff");
    waiting.put(
        "message", "back-off restarting failed container " + s.path("name").asText() + " (exit 1)");
    ObjectNode terminated = s.putObject("lastState").putObject("terminated");
    terminated.put("exitCode", 1);
    terminated.put("reason", "Error");
    terminated.put("startedAt", time);
    terminated.put("finishedAt", time);
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

  private static boolean bound(JsonNode pod) {
    String node = Json.text(pod, "spec.nodeName");
    return node != null && !node.isEmpty();
  }

  private static String uid(JsonNode pod) {
    return Json.text(pod, "metadata.uid");
  }

  private static String key(JsonNode pod) {
    return ObjectStore.key(Json.namespace(pod), Json.name(pod));
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
}
