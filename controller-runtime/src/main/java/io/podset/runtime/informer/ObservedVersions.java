package io.podset.runtime.informer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Futures waiting for an informer's cache to reach a resourceVersion, and what they tell of how
 * closely the cache follows the server ({@link #following}): the waiters are mostly the owner's own
 * writes (the read-your-writes barrier waits for each write's answer), so the time a waiter waits
 * is the time the server took to show a write of ours through the watch.
 */
final class ObservedVersions {

  /** How long the delay of the last write shown counts as a sign of a slow watch. */
  static final long ECHO_MEMORY_NANOS = 5_000_000_000L;

  private record Waiter(String resourceVersion, CompletableFuture<Void> future, long sinceNanos) {}

  private final Object lock = new Object();
  // Guarded by lock: the newest observed version (null before any) and the pending waiters, oldest
  // first.
  private @Nullable String observed;
  private final List<Waiter> waiters = new ArrayList<>();
  private boolean closed;
  // Guarded by lock: when the version last advanced (valid once advanced is true); how long the
  // slowest of the waiters completed last had waited, and when (valid once echoed is true).
  private boolean advanced;
  private long advancedNanos;
  private boolean echoed;
  private long echoDelayNanos;
  private long echoedNanos;

  CompletableFuture<Void> await(String resourceVersion, long nowNanos) {
    if (!ResourceVersions.isNumeric(resourceVersion)) {
      throw new IllegalArgumentException(
          "resourceVersion must be numeric to be ordered: '" + resourceVersion + "'");
    }
    CompletableFuture<Void> future = new CompletableFuture<>();
    synchronized (lock) {
      if (closed) {
        future.cancel(false);
        return future;
      }
      if (!reached(resourceVersion)) {
        waiters.add(new Waiter(resourceVersion, future, nowNanos));
        return future;
      }
    }
    future.complete(null);
    return future;
  }

  /**
   * Called (outside the FIFO's lock) when the cache reached a newer version at {@code nowNanos}.
   */
  void advance(String resourceVersion, long nowNanos) {
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    synchronized (lock) {
      observed = ResourceVersions.newer(observed, resourceVersion);
      advanced = true;
      advancedNanos = nowNanos;
      long slowest = -1;
      for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
        Waiter waiter = it.next();
        if (waiter.future().isDone()) {
          it.remove();
        } else if (reached(waiter.resourceVersion())) {
          it.remove();
          ready.add(waiter.future());
          slowest = Math.max(slowest, nowNanos - waiter.sinceNanos());
        }
      }
      if (slowest >= 0) {
        // What the newest echoes say replaces what older ones said.
        echoed = true;
        echoDelayNanos = slowest;
        echoedNanos = nowNanos;
      }
    }
    for (CompletableFuture<Void> future : ready) {
      future.complete(null);
    }
  }

  /**
   * Whether, at {@code nowNanos}, the cache shows that it follows the server: its version advanced
   * (a change or a bookmark applied) at most {@code maxSilenceNanos} ago; no waiter has waited
   * longer than {@code toleranceNanos}; and the last waiters to complete, if that was within the
   * past {@value #ECHO_MEMORY_NANOS} ns, did not wait longer either (a watch whose events all
   * arrive late shows each write late).
   */
  boolean following(long nowNanos, long toleranceNanos, long maxSilenceNanos) {
    synchronized (lock) {
      if (closed || !advanced || nowNanos - advancedNanos > maxSilenceNanos) {
        return false;
      }
      if (echoed
          && nowNanos - echoedNanos <= ECHO_MEMORY_NANOS
          && echoDelayNanos > toleranceNanos) {
        return false;
      }
      for (Waiter waiter : waiters) {
        if (!waiter.future().isDone() && nowNanos - waiter.sinceNanos() > toleranceNanos) {
          return false;
        }
      }
      return true;
    }
  }

  void cancelAll() {
    List<Waiter> pending;
    synchronized (lock) {
      closed = true;
      pending = List.copyOf(waiters);
      waiters.clear();
    }
    for (Waiter waiter : pending) {
      waiter.future().cancel(false);
    }
  }

  private boolean reached(String resourceVersion) {
    return observed != null
        && ResourceVersions.isNumeric(observed)
        && ResourceVersions.compare(observed, resourceVersion) >= 0;
  }
}
