package io.podset.runtime.informer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** Futures waiting for an informer's cache to reach a resourceVersion. */
final class ObservedVersions {

  private record Waiter(String resourceVersion, CompletableFuture<Void> future) {}

  private final Object lock = new Object();
  // Guarded by lock: the newest observed version (null before any) and the pending waiters.
  private @Nullable String observed;
  private final List<Waiter> waiters = new ArrayList<>();
  private boolean closed;

  CompletableFuture<Void> await(String resourceVersion) {
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
        waiters.add(new Waiter(resourceVersion, future));
        return future;
      }
    }
    future.complete(null);
    return future;
  }

  /** Called (outside the FIFO's lock) when the cache reached a newer version. */
  void advance(String resourceVersion) {
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    synchronized (lock) {
      observed = ResourceVersions.newer(observed, resourceVersion);
      for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
        Waiter waiter = it.next();
        if (waiter.future().isDone()) {
          it.remove();
        } else if (reached(waiter.resourceVersion())) {
          it.remove();
          ready.add(waiter.future());
        }
      }
    }
    for (CompletableFuture<Void> future : ready) {
      future.complete(null);
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
