package io.podset.operator;

import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.informer.ResourceVersions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The version a hand-synced cache has reached, as an informer reports its own, whether it follows
 * the server ({@link #following}: as the test says, by default yes) and whether it met a fault
 * lately ({@link #faultedWithin}: by default no). Thread-safe.
 */
final class ManualCacheVersion implements CacheVersion {

  private record Waiter(String resourceVersion, CompletableFuture<Void> future) {}

  private final List<Waiter> waiters = new ArrayList<>();
  private String version = "0";
  private boolean following = true;
  private int followingAsked;
  private boolean faulted;

  @Override
  public synchronized boolean following(Duration tolerance, Duration maxSilence) {
    followingAsked++;
    return following;
  }

  /** From now on {@link #following} answers {@code following}. */
  synchronized void following(boolean following) {
    this.following = following;
  }

  @Override
  public synchronized boolean faultedWithin(Duration window) {
    return faulted;
  }

  /** From now on {@link #faultedWithin} answers {@code faulted} (by default no). */
  synchronized void faulted(boolean faulted) {
    this.faulted = faulted;
  }

  /** How often {@link #following} was asked. */
  synchronized int followingAsked() {
    return followingAsked;
  }

  @Override
  public synchronized String lastObservedResourceVersion() {
    return version;
  }

  @Override
  public CompletableFuture<Void> awaitObserved(String resourceVersion) {
    CompletableFuture<Void> future = new CompletableFuture<>();
    synchronized (this) {
      if (!ResourceVersions.atLeast(version, resourceVersion)) {
        waiters.add(new Waiter(resourceVersion, future));
        return future;
      }
    }
    future.complete(null);
    return future;
  }

  /** The cache now holds every change up to {@code resourceVersion}. */
  void reached(String resourceVersion) {
    List<Waiter> done = new ArrayList<>();
    synchronized (this) {
      version = resourceVersion;
      waiters.removeIf(
          w -> ResourceVersions.atLeast(resourceVersion, w.resourceVersion()) && done.add(w));
    }
    done.forEach(w -> w.future().complete(null));
  }
}
