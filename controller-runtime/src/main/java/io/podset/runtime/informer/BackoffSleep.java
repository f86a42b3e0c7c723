package io.podset.runtime.informer;

import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The waits between a {@link Reflector}'s attempts: a delay on the injected clock that {@link
 * #close()} cuts short, for the one thread that sleeps.
 */
final class BackoffSleep {

  private final Clock clock;

  private final Object lock = new Object();
  // Guarded by lock: closed for good; the current wait, completed early by close().
  private boolean closed;
  private @Nullable CompletableFuture<Void> sleeping;

  BackoffSleep(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Waits {@code delay} on the clock, or less when closed or interrupted meanwhile.
   *
   * @return false when closed (before or during the wait)
   */
  boolean sleep(Duration delay) {
    CompletableFuture<Void> wake = new CompletableFuture<>();
    synchronized (lock) {
      if (closed) {
        return false;
      }
      sleeping = wake;
    }
    Clock.Cancellable timer = clock.schedule(delay, () -> wake.complete(null));
    try {
      wake.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException("sleep future failed", e);
    } finally {
      timer.cancel();
      synchronized (lock) {
        sleeping = null;
      }
    }
    synchronized (lock) {
      return !closed;
    }
  }

  /** Ends the current wait and refuses later ones; idempotent. */
  void close() {
    CompletableFuture<Void> current;
    synchronized (lock) {
      closed = true;
      current = sleeping;
    }
    if (current != null) {
      current.complete(null);
    }
  }
}
