package io.podset.testkit;

import io.podset.testkit.internal.resource.NameRule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the {@link SimulatedKubelet} times a pod's life, on the server's clock.
 *
 * <p>A new pod is bound to {@code nodeName} after {@code scheduleDelay}, its containers run after a
 * further {@code startDelay} (phase Running, pod IP) and it becomes Ready after a further {@code
 * readyDelay}. A crash-looping container restarts after {@code crashLoopBackOff}, doubling up to
 * five minutes as the kubelet's back-off does. A pod marked for deletion is removed when its grace
 * period ends or, if set, after {@code terminationDelay} when that is shorter (containers that exit
 * promptly on SIGTERM).
 *
 * @param nodeName the node pods are bound to
 * @param scheduleDelay from creation to binding
 * @param startDelay from binding to Running
 * @param readyDelay from Running to Ready
 * @param crashLoopBackOff the first restart delay of a crash-looping container
 * @param terminationDelay how long containers take to stop; empty: the whole grace period
 */
public record KubeletOptions(
    String nodeName,
    Duration scheduleDelay,
    Duration startDelay,
    Duration readyDelay,
    Duration crashLoopBackOff,
    Optional<Duration> terminationDelay) {

  /**
   * Validates the options.
   *
   * @throws IllegalArgumentException if the node name is not a DNS subdomain or a delay is negative
   */
  public KubeletOptions {
    Objects.requireNonNull(nodeName, "nodeName");
    String problem = NameRule.SUBDOMAIN.check(nodeName);
    if (problem != null) {
      throw new IllegalArgumentException("nodeName is invalid: \"" + nodeName + "\": " + problem);
    }
    checkDelay("scheduleDelay", scheduleDelay);
    checkDelay("startDelay", startDelay);
    checkDelay("readyDelay", readyDelay);
    checkDelay("crashLoopBackOff", crashLoopBackOff);
    if (crashLoopBackOff.isZero()) {
      throw new IllegalArgumentException("crashLoopBackOff must be positive: " + crashLoopBackOff);
    }
    Objects.requireNonNull(terminationDelay, "terminationDelay");
    terminationDelay.ifPresent(d -> checkDelay("terminationDelay", d));
  }

  private static void checkDelay(String name, Duration delay) {
    Objects.requireNonNull(delay, name);
    if (delay.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + delay);
    }
  }

  /**
   * Node {@code fake-node}; scheduled at once, Running after 100 ms, Ready after a further 100 ms;
   * crash-loop back-off 10 s; deleting pods stay for their whole grace period.
   */
  public static KubeletOptions defaults() {
    return new KubeletOptions(
        "fake-node",
        Duration.ZERO,
        Duration.ofMillis(100),
        Duration.ofMillis(100),
        Duration.ofSeconds(10),
        Optional.empty());
  }

  /** Every stage at once (on the next clock tick): pods are Ready as soon as the clock runs. */
  public static KubeletOptions immediate() {
    return defaults()
        .withStartDelay(Duration.ZERO)
        .withReadyDelay(Duration.ZERO)
        .withTerminationDelay(Duration.ZERO);
  }

  /** A copy with another node name. */
  public KubeletOptions withNodeName(String name) {
    return new KubeletOptions(
        name, scheduleDelay, startDelay, readyDelay, crashLoopBackOff, terminationDelay);
  }

  /** A copy with another delay from creation to binding. */
  public KubeletOptions withScheduleDelay(Duration delay) {
    return new KubeletOptions(
        nodeName, delay, startDelay, readyDelay, crashLoopBackOff, terminationDelay);
  }

  /** A copy with another delay from binding to Running. */
  public KubeletOptions withStartDelay(Duration delay) {
    return new KubeletOptions(
        nodeName, scheduleDelay, delay, readyDelay, crashLoopBackOff, terminationDelay);
  }

  /** A copy with another delay from Running to Ready. */
  public KubeletOptions withReadyDelay(Duration delay) {
    return new KubeletOptions(
        nodeName, scheduleDelay, startDelay, delay, crashLoopBackOff, terminationDelay);
  }

  /** A copy with another first crash-loop back-off. */
  public KubeletOptions withCrashLoopBackOff(Duration backOff) {
    return new KubeletOptions(
        nodeName, scheduleDelay, startDelay, readyDelay, backOff, terminationDelay);
  }

  /** A copy where containers stop {@code delay} after deletion starts (capped by the grace). */
  public KubeletOptions withTerminationDelay(Duration delay) {
    return new KubeletOptions(
        nodeName,
        scheduleDelay,
        startDelay,
        readyDelay,
        crashLoopBackOff,
        Optional.of(Objects.requireNonNull(delay, "delay")));
  }
}
