package io.podset.testkit.internal.controllers;

import io.podset.runtime.time.Clock;
import io.podset.testkit.SimulatedKubelet.PodFate;

/**
 * What the simulated kubelet knows of one pod (by uid). Guarded by the simulator's lock: every
 * field is read and written only while holding it.
 */
final class PodState {
  final String key;
  final String uid;
  PodFate fate;
  boolean started;
  boolean terminating;
  String deletionTimestamp;
  int restarts;
  Clock.Cancellable pending;

  PodState(String key, String uid, PodFate fate) {
    this.key = key;
    this.uid = uid;
    this.fate = fate;
  }

  /**
   * Counts {@code stage} (a START of a crash-looping pod and a CRASH are restarts); the restarts.
   */
  int count(PodStage stage) {
    if (stage == PodStage.START) {
      started = true;
      if (fate == PodFate.CRASH_LOOP) {
        restarts++;
      }
    } else if (stage == PodStage.CRASH) {
      restarts++;
    }
    return restarts;
  }
}
