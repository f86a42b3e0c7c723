package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.podset.runtime.time.Clock;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.Registration;
import io.podset.testkit.SimulatedKubelet;
import io.podset.testkit.SimulatedKubelet.PodFate;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.Deletions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
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

  private final ObjectStore store;
  private final ResourceType pods;
  private final Clock clock;
  private final PodFates fates = new PodFates();
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
  public Registration assign(Predicate<Pod> predicate, PodFate fate) {
    return fates.assign(predicate, fate);
  }

  @Override
  public void setFate(String namespace, String name, PodFate fate) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fate, "fate");
    ObjectNode pod = store.get(pods.storageKey(), ObjectStore.key(namespace, name));
    if (pod == null) {
      throw new IllegalArgumentException("no pod " + namespace + "/" + name);
    }
    PodStage stage;
    PodState state;
    synchronized (lock) {
      if (!enabled) {
        throw new IllegalStateException("the simulated kubelet is disabled");
      }
      state = observe(pod);
      if (state == null || state.terminating) {
        return;
      }
      if (fate == PodFate.UNSCHEDULABLE && PodStatuses.bound(pod)) {
        throw new IllegalArgumentException(
            "pod " + namespace + "/" + name + " is bound already: it cannot become unschedulable");
      }
      state.fate = fate;
      if (!state.started) {
        return;
      }
      cancel(state);
      stage = PodStage.onFateChange(fate);
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
      state = new PodState(key(pod), uid, fates.fateOf(pod));
      states.put(uid, state);
      String phase = Json.text(pod, "status.phase");
      if (Deletions.deleting(pod)) {
        // Handled below.
      } else if (!PodStatuses.bound(pod)) {
        schedule(state, PodStage.SCHEDULE, options.scheduleDelay());
      } else if (phase == null || phase.equals("Pending")) {
        schedule(state, PodStage.START, options.startDelay());
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
      schedule(state, PodStage.TERMINATE, delay.isNegative() ? Duration.ZERO : delay);
    } else if (!state.terminating && state.started && PodStatuses.imageChanged(pod)) {
      // A container image patched in place: the kubelet restarts that container on the new image.
      schedule(state, PodStage.RESTART, options.startDelay());
    }
    return state;
  }

  /** Schedules {@code stage} of a pod. Holds the lock. */
  private void schedule(PodState state, PodStage stage, Duration delay) {
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
  private void run(PodState state, PodStage stage) {
    KubeletOptions current;
    synchronized (lock) {
      if (!enabled || states.get(state.uid) != state) {
        return;
      }
      state.pending = null;
      current = options;
    }
    Instant now = clock.instant();
    String podIp = stage == PodStage.START ? nextAddress() : null;
    try {
      store.write(
          pods.storageKey(),
          state.key,
          pod -> {
            if (pod == null || !state.uid.equals(uid(pod))) {
              return pod;
            }
            if (stage == PodStage.TERMINATE) {
              return Deletions.next(pods, pod, new DeleteOptions(0L, null, null, null, false), now);
            }
            if (Deletions.deleting(pod)) {
              return pod;
            }
            PodFate fate;
            int restarts;
            synchronized (lock) {
              fate = state.fate;
              restarts = state.count(stage);
            }
            return PodStatuses.after(stage, pod, fate, restarts, current.nodeName(), now, podIp);
          });
    } catch (RuntimeException e) {
      LOG.warn("Simulated kubelet could not write stage {} of pod {}", stage, state.key, e);
      return;
    }
    synchronized (lock) {
      if (!enabled || states.get(state.uid) != state || state.pending != null) {
        return;
      }
      PodStage.Next next = stage.next(state.fate, state.restarts, current);
      if (next != null) {
        schedule(state, next.stage(), next.delay());
      }
    }
  }

  private String nextAddress() {
    synchronized (lock) {
      int n = addresses++;
      return "10.244." + (n / 250) % 256 + "." + (n % 250 + 2);
    }
  }

  private static String uid(JsonNode pod) {
    return Json.text(pod, "metadata.uid");
  }

  private static String key(JsonNode pod) {
    return ObjectStore.key(Json.namespace(pod), Json.name(pod));
  }
}
