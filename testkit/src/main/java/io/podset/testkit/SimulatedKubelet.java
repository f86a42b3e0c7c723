package io.podset.testkit;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * A kubelet and scheduler for every pod of a {@link FakeApiServer}, off unless enabled: a new pod
 * is bound to the node, gets a pod IP, phase Running, started containers (with their image and
 * {@code startedAt}) and the Ready and ContainersReady conditions, each stage after the delays of
 * its {@link KubeletOptions}, timed by the server's clock (a {@code ManualClock} drives it step by
 * step). A pod marked for deletion is removed when its grace period ends (or after the options'
 * termination delay when shorter). A container image patched into a running pod restarts that
 * container on the new image after the start delay ({@code restartCount} + 1, {@code lastState}
 * terminated with exit code 137, the pod not Ready), and the pod is Ready again after the ready
 * delay, as a kubelet does.
 *
 * <p>A pod's {@link PodFate} comes from the first matching rule added with {@link #assign}, newest
 * first, else from its annotation or label {@value #FATE_KEY} (values {@code run}, {@code
 * never-ready}, {@code fail}, {@code crash-loop}, {@code unschedulable}), else {@link PodFate#RUN}.
 *
 * <p>The kubelet writes to the store directly: its writes bump the resourceVersion and reach
 * watches, but they are not requests, so the request journal and fault rules do not see them.
 *
 * <p>Thread-safe.
 */
public interface SimulatedKubelet {

  /** The annotation (or label) that chooses a pod's fate. */
  String FATE_KEY = "testkit.podset.io/fate";

  /** What becomes of a pod. */
  enum PodFate {
    /** Scheduled, Running, then Ready. */
    RUN,
    /** Scheduled and Running, never Ready (a failing readiness probe). */
    NEVER_READY,
    /** Scheduled, then phase Failed with containers terminated (exit code 1). */
    FAIL,
    /** Scheduled and Running, containers exit and restart with back-off; restartCount grows. */
    CRASH_LOOP,
    /** Never bound: stays Pending with PodScheduled=False, reason Unschedulable. */
    UNSCHEDULABLE;

    /** The annotation value: the name in lower case with dashes ({@code crash-loop}). */
    public String value() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The fate named by an annotation value.
     *
     * @throws IllegalArgumentException for an unknown value
     */
    public static PodFate fromValue(String value) {
      for (PodFate fate : values()) {
        if (fate.value().equals(value)) {
          return fate;
        }
      }
      throw new IllegalArgumentException(
          FATE_KEY
              + " must be one of run, never-ready, fail, crash-loop, unschedulable: \""
              + value
              + "\"");
    }
  }

  /**
   * Starts simulating with {@code options}: pods that exist already are taken up where they stand
   * (unbound pods are scheduled, bound ones started, deleting ones terminated).
   */
  void enable(KubeletOptions options);

  /** {@link #enable(KubeletOptions)} with the current options. */
  void enable();

  /** Stops simulating: pending stages are cancelled, pods stay as they are. */
  void disable();

  /** Whether it is simulating. */
  boolean isEnabled();

  /** The current options. */
  KubeletOptions options();

  /**
   * Pods created from now on that match {@code predicate} get {@code fate}. The predicate runs
   * under the store's lock: it must be quick and must not call the server.
   *
   * @return removes the rule
   */
  Registration assign(Predicate<Pod> predicate, PodFate fate);

  /**
   * Gives an existing pod a new fate now: a running pod turns Ready ({@link PodFate#RUN}), unready
   * ({@link PodFate#NEVER_READY}), Failed, or starts crash-looping; a pod not bound yet follows the
   * new fate when it is.
   *
   * @throws IllegalArgumentException if the pod does not exist, or it is bound and the fate is
   *     {@link PodFate#UNSCHEDULABLE}
   * @throws IllegalStateException if the kubelet is disabled
   */
  void setFate(String namespace, String name, PodFate fate);
}
