package io.podset.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits in a test for something that other threads (an informer, a controller, the fake server)
 * make true: evaluates a condition until it holds or a deadline passes, then fails with an {@link
 * AssertionError} naming what was awaited, the timeout and the last value observed.
 *
 * <pre>{@code
 * Eventually.await("the watch", () -> informer.health().watching());
 * List<Pod> pods = Eventually.await("3 pods", () -> livePods("web"), p -> p.size() == 3);
 * Eventually.within(Duration.ofSeconds(90))
 *     .reporting(() -> "operator log:\n" + readLog())
 *     .until("the PodSet ready", () -> ready("web"));
 * }</pre>
 *
 * <p>The condition runs on the calling thread; what it throws propagates at once (an assertion
 * inside it fails the wait early, on purpose). Between evaluations the caller parks for a short
 * interval that grows from 50 µs to 10 ms (see {@link #polling(Duration)}), so a condition that
 * holds soon is seen soon and a long wait leaves the (small, shared) CPU to the threads under test.
 * Instances are immutable.
 */
public final class Eventually {

  /** How long {@link #await(String, BooleanSupplier)} waits: generous, for a loaded machine. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private static final long FIRST_PARK_NANOS = Duration.ofNanos(50_000).toNanos();
  private static final long LONGEST_PARK_NANOS = Duration.ofMillis(10).toNanos();
  private static final Eventually DEFAULT =
      new Eventually(DEFAULT_TIMEOUT, LONGEST_PARK_NANOS, () -> null);

  private final Duration timeout;
  private final long longestParkNanos;
  private final Supplier<String> context;

  private Eventually(Duration timeout, long longestParkNanos, Supplier<String> context) {
    this.timeout = timeout;
    this.longestParkNanos = longestParkNanos;
    this.context = context;
  }

  /**
   * A wait that gives up after {@code timeout}.
   *
   * @throws IllegalArgumentException if {@code timeout} is negative or zero
   * @throws NullPointerException if {@code timeout} is null
   */
  public static Eventually within(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    return new Eventually(timeout, LONGEST_PARK_NANOS, () -> null);
  }

  /**
   * The same wait, pausing up to {@code interval} (instead of 10 ms) between evaluations: for a
   * condition that is expensive to evaluate, such as one that runs a process.
   *
   * @throws IllegalArgumentException if {@code interval} is negative or zero
   * @throws NullPointerException if {@code interval} is null
   */
  public Eventually polling(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, was " + interval);
    }
    return new Eventually(timeout, interval.toNanos(), context);
  }

  /**
   * The same wait, whose failure message ends with what {@code context} returns at that moment (a
   * process log, the objects on the server); a null answer adds nothing.
   *
   * @throws NullPointerException if {@code context} is null
   */
  public Eventually reporting(Supplier<String> context) {
    return new Eventually(timeout, longestParkNanos, Objects.requireNonNull(context, "context"));
  }

  /**
   * Waits {@link #DEFAULT_TIMEOUT} until {@code condition} holds.
   *
   * @param what names the condition in the failure message ("the watch", "3 pods")
   * @throws AssertionError if it does not hold in time, or the thread is interrupted
   */
  public static void await(String what, BooleanSupplier condition) {
    DEFAULT.until(what, condition);
  }

  /**
   * Waits {@link #DEFAULT_TIMEOUT} until {@code done} accepts what {@code observe} returns.
   *
   * @return the first observed value that {@code done} accepted
   * @throws AssertionError if none does in time (the message shows the last observed value), or the
   *     thread is interrupted
   */
  public static <T> T await(String what, Supplier<? extends T> observe, Predicate<? super T> done) {
    return DEFAULT.until(what, observe, done);
  }

  /**
   * Waits until {@code condition} holds.
   *
   * @throws AssertionError if it does not hold before the timeout, or the thread is interrupted
   */
  public void until(String what, BooleanSupplier condition) {
    Objects.requireNonNull(condition, "condition");
    until(what, condition::getAsBoolean, Boolean::booleanValue);
  }

  /**
   * Waits until {@code done} accepts what {@code observe} returns.
   *
   * @return the first observed value that {@code done} accepted
   * @throws AssertionError if none does before the timeout (the message shows the last observed
   *     value), or the thread is interrupted
   */
  public <T> T until(String what, Supplier<? extends T> observe, Predicate<? super T> done) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(observe, "observe");
    Objects.requireNonNull(done, "done");
    long deadline = System.nanoTime() + timeout.toNanos();
    long park = Math.min(FIRST_PARK_NANOS, longestParkNanos);
    while (true) {
      T observed = observe.get();
      if (done.test(observed)) {
        return observed;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(failure(what, observed));
      }
      LockSupport.parkNanos(park);
      if (Thread.currentThread().isInterrupted()) {
        throw new AssertionError("interrupted while waiting for " + what);
      }
      park = Math.min(park * 2, longestParkNanos);
    }
  }

  private String failure(String what, Object observed) {
    StringBuilder message =
        new StringBuilder("timed out after ")
            .append(timeout)
            .append(" waiting for ")
            .append(what)
            .append("; last observed: ")
            .append(observed);
    String extra = context.get();
    if (extra != null) {
      message.append("; ").append(extra);
    }
    return message.toString();
  }
}
