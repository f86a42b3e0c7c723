package io.podset.runtime.manager;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One blocking call (a Lease request) run on an executor, whose answer is delivered exactly once:
 * the call's own, or false when a timeout on the clock passes first; a late answer is then dropped.
 * The caller's thread never waits for the call.
 */
final class TimedCall {

  private TimedCall() {}

  /**
   * Runs {@code call} on {@code runner} and hands the answer to {@code then}, on the thread that
   * produced it (the runner's, or the clock's when the timeout fired first).
   *
   * @param timeout how long the call may take; null for no bound
   * @param onTimeout runs when the timeout passed first, after {@code then} got false
   * @param then receives the answer; false when the runner refuses the call (shut down)
   */
  static void run(
      Clock clock,
      Executor runner,
      @Nullable Duration timeout,
      BooleanSupplier call,
      Runnable onTimeout,
      Consumer<Boolean> then) {
    CompletableFuture<Boolean> outcome = new CompletableFuture<>();
    Clock.Cancellable timer =
        timeout == null
            ? () -> {}
            : clock.schedule(
                timeout,
                () -> {
                  if (outcome.complete(false)) {
                    onTimeout.run();
                  }
                });
    outcome.thenAccept(
        answer -> {
          timer.cancel();
          then.accept(answer);
        });
    try {
      runner.execute(() -> outcome.complete(call.getAsBoolean()));
    } catch (RejectedExecutionException e) {
      outcome.complete(false);
    }
  }
}
