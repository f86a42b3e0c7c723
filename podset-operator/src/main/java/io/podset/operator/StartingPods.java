package io.podset.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Paces the status writes of the PodSets this operator just created pods for, while those pods
 * start: pods created together become Ready one after the other, and writing the status at every
 * step cost up to one write per pod (1595 status writes for 1000 PodSets of 3 pods in the converge
 * benchmark; on the simulated cluster, where pods take seconds to become Ready under load, 2.35 and
 * 2.56 per PodSet at 300 and 1000 PodSets, where a single hold of one delay left every later step
 * written at once). Each status write is also a watch event for every PodSet watcher.
 *
 * <p>A starting PodSet's status changes are collected in windows. A window opens at the first
 * status write held back and ends {@code delay} after the first pod turned Ready in it (more pods
 * Ready than the written status shows): pods created together usually follow within that time. A
 * window in which no pod turns Ready ends {@code 5 x delay} after it opened, so that the status of
 * pods that cannot start still shows within seconds. The status is written when a window ends, and
 * the next window waits twice as long after its first Ready pod (1, 2, 4, then 5 delays): the
 * writes of a PodSet whose pods keep starting slowly grow rarer. A status with every pod Ready is
 * written at once, and so is one with a failure (the reconciler does not ask then). A new
 * generation of the PodSet starts over, and while the written status describes an older spec (the
 * PodSet was scaled up, say) the window lasts at most one delay, so that its {@code
 * observedGeneration} shows as promptly as before. Times come from the reconciler's clock.
 * Thread-safe.
 *
 * <p>(The ReplicaSet controller writes every change of its counts, coalesced only by its work
 * queue, 2 to 2.8 status writes per ReplicaSet of 3 pods on the simulated cluster; the Job and
 * EndpointSlice controllers hold their syncs for a fixed batch period of 1 s, which at a slower
 * pace still costs a write per step.)
 *
 * @param <K> the PodSet key type
 */
final class StartingPods<K> {

  /** How many delays a window lasts at most: without a Ready pod, and after its first one. */
  static final int MAX_DELAYS = 5;

  /** A PodSet whose new pods are starting. */
  private static final class Starting {
    final long generation;
    // How many windows ended in a write: the next one waits 2^writes delays after its first pod
    // Ready, at most MAX_DELAYS.
    int writes;
    // The open window: null until a write is held back, and again after a write.
    Instant opened;
    // When a pod first turned Ready in the open window, or null.
    Instant firstReady;

    Starting(long generation) {
      this.generation = generation;
    }
  }

  private final Duration delay;
  private final Duration longest;
  private final Object lock = new Object();
  // Guarded by lock. A key is present from our creates for it until a status with every pod Ready
  // is let through, or another generation of it is reconciled.
  private final Map<K, Starting> starting = new HashMap<>();

  StartingPods(Duration delay) {
    this.delay = Objects.requireNonNull(delay, "delay");
    this.longest = delay.multipliedBy(MAX_DELAYS);
  }

  /**
   * Pods were created for {@code key} at {@code generation}: its next status writes may wait for
   * them. Creates for the same generation while they start (a pod replaced) keep its windows.
   */
  void created(K key, long generation) {
    Objects.requireNonNull(key, "key");
    if (delay.isZero()) {
      return;
    }
    synchronized (lock) {
      Starting state = starting.get(key);
      if (state == null || state.generation != generation) {
        starting.put(key, new Starting(generation));
      }
    }
  }

  /**
   * How much longer a changed status for {@code key} should wait: zero when no pods were created
   * for it at this generation (or they are all Ready since), when every one of {@code active} is
   * Ready, or when the window the status waits in has ended; otherwise what is left of the window.
   *
   * @param generation the generation of the PodSet reconciled
   * @param active the pods the status counts
   * @param written the status on the server as far as the caller knows
   * @param now the reconciler's time
   */
  Duration waitFor(
      K key, long generation, Collection<Pod> active, PodSetStatus written, Instant now) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(active, "active");
    Objects.requireNonNull(written, "written");
    Objects.requireNonNull(now, "now");
    synchronized (lock) {
      Starting state = starting.get(key);
      if (state == null) {
        return Duration.ZERO;
      }
      if (state.generation != generation || active.stream().allMatch(Pods::isReady)) {
        starting.remove(key);
        return Duration.ZERO;
      }
      if (state.opened == null) {
        state.opened = now;
      }
      if (state.firstReady == null
          && active.stream().filter(Pods::isReady).count() > written.readyReplicas()) {
        state.firstReady = now;
      }
      // A status that describes an older spec than the PodSet's (a scale, say) shows the new
      // generation within one delay, as a held status did before windows.
      boolean newSpec =
          written.observedGeneration() > 0 && written.observedGeneration() < generation;
      Instant end = state.opened.plus(newSpec ? delay : longest);
      if (state.firstReady != null) {
        Instant afterReady = state.firstReady.plus(window(state.writes));
        if (afterReady.isBefore(end)) {
          end = afterReady;
        }
      }
      Duration left = Duration.between(now, end);
      return left.isNegative() ? Duration.ZERO : left;
    }
  }

  /** A status of {@code key} was written: the window it waited in (if any) is over. */
  void wrote(K key) {
    synchronized (lock) {
      Starting state = starting.get(key);
      if (state != null && state.opened != null) {
        state.writes++;
        state.opened = null;
        state.firstReady = null;
      }
    }
  }

  /** Drops what is remembered for {@code key}. */
  void forget(K key) {
    synchronized (lock) {
      starting.remove(key);
    }
  }

  /** How long the window after {@code writes} writes lasts after its first Ready pod. */
  private Duration window(int writes) {
    return delay.multipliedBy(Math.min(1L << Math.min(writes, 3), MAX_DELAYS));
  }
}
