package io.podset.runtime.reconcile;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** What the controller does with a request after a successful reconcile. Immutable. */
public final class Result {

  private static final Result DONE = new Result(null);

  private final @Nullable Duration requeueAfter;

  private Result(@Nullable Duration requeueAfter) {
    this.requeueAfter = requeueAfter;
  }

  /** The object is reconciled; forget its backoff and wait for the next event. */
  public static Result done() {
    return DONE;
  }

  /**
   * Reconcile again after {@code delay} (for example to poll an external system); the backoff is
   * forgotten, as on success.
   *
   * @throws IllegalArgumentException if {@code delay} is zero or negative
   */
  public static Result requeueAfter(Duration delay) {
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative() || delay.isZero()) {
      throw new IllegalArgumentException("delay must be positive: " + delay);
    }
    return new Result(delay);
  }

  /** The delay before the next reconcile, when one was asked for. */
  public Optional<Duration> requeueAfter() {
    return Optional.ofNullable(requeueAfter);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Result that && Objects.equals(requeueAfter, that.requeueAfter);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(requeueAfter);
  }

  @Override
  public String toString() {
    return requeueAfter == null ? "Result[done]" : "Result[requeueAfter=" + requeueAfter + "]";
  }
}
