package io.podset.testkit.internal.controllers;

import io.podset.testkit.KubeletOptions;
import io.podset.testkit.SimulatedKubelet.PodFate;
import java.time.Duration;

/** The steps of a pod's life that the simulated kubelet writes, and which step follows which. */
enum PodStage {
  SCHEDULE,
  START,
  READY,
  UNREADY,
  CRASH,
  RESTART,
  TERMINATE;

  private static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

  /** A stage to run after a delay. */
  record Next(PodStage stage, Duration delay) {}

  /**
   * What follows this stage, once written, for a pod of {@code fate} that restarted {@code
   * restarts} times; null when the pod stays as it is.
   */
  Next next(PodFate fate, int restarts, KubeletOptions options) {
    return switch (this) {
      case SCHEDULE -> fate == PodFate.UNSCHEDULABLE ? null : new Next(START, options.startDelay());
      case START, RESTART ->
          switch (fate) {
            case RUN -> new Next(READY, options.readyDelay());
            case CRASH_LOOP -> new Next(CRASH, backOff(options, restarts));
            default -> null;
          };
      case CRASH -> new Next(CRASH, backOff(options, restarts));
      case READY, UNREADY, TERMINATE -> null;
    };
  }

  /** The stage a started pod moves to at once when a test sets its fate. */
  static PodStage onFateChange(PodFate fate) {
    return switch (fate) {
      case RUN -> READY;
      case NEVER_READY -> UNREADY;
      case FAIL -> START;
      case CRASH_LOOP -> CRASH;
      case UNSCHEDULABLE -> throw new IllegalStateException("a started pod is bound");
    };
  }

  /**
   * The crash-loop back-off: the configured delay doubled per restart after the first, at most 5
   * min.
   */
  private static Duration backOff(KubeletOptions options, int restarts) {
    Duration delay = options.crashLoopBackOff();
    for (int i = 1; i < restarts && delay.compareTo(MAX_BACK_OFF) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : delay;
  }
}
