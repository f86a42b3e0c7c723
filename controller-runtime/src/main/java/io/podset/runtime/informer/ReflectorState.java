package io.podset.runtime.informer;

import io.podset.runtime.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Reflector} knows of its progress: the resourceVersion to resume listing and
 * watching from, and its health. Written by the reflector's thread and its watch's thread, read by
 * health checks; one lock, so a {@link Status} is a consistent view.
 */
final class ReflectorState {

  /** A consistent view of the reflector's state, for health. */
  record Status(
      boolean watching,
      @Nullable Instant lastEventTime,
      @Nullable String lastSyncResourceVersion,
      long relistCount,
      @Nullable String lastError) {}

  private final Clock clock;

  private final Object lock = new Object();
  // All guarded by lock.
  private boolean watching;
  private @Nullable Instant lastEventTime;
  // "" until the first list; the version of the last list, event or bookmark afterwards.
  private String lastSyncResourceVersion = "";
  // Set when the server said that version is gone or too large: the next list is a quorum read.
  private boolean lastSyncUnavailable;
  // Completed lists, plain or streaming; every one after the first is a relist.
  private long lists;
  private @Nullable String lastError;
  // When the last fault (a failed request, an abnormal watch end, a relist) was recorded, on the
  // clock's nanoTime; valid once faulted is true.
  private boolean faulted;
  private long faultNanos;

  ReflectorState(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  Status status() {
    synchronized (lock) {
      return new Status(
          watching, lastEventTime, lastSyncResourceVersion, Math.max(0, lists - 1), lastError);
    }
  }

  @Nullable String lastSyncResourceVersion() {
    synchronized (lock) {
      return lastSyncResourceVersion;
    }
  }

  /** The version a plain list asks for: "0" first, the last synced one, or "" for a quorum read. */
  String listResourceVersion() {
    synchronized (lock) {
      if (lastSyncUnavailable) {
        return "";
      }
      return lastSyncResourceVersion.isEmpty() ? "0" : lastSyncResourceVersion;
    }
  }

  /** The version a streaming list starts from: the last synced one, or "" for the newest. */
  String streamResourceVersion() {
    synchronized (lock) {
      return lastSyncUnavailable ? "" : lastSyncResourceVersion;
    }
  }

  /** The version a watch resumes from. */
  String watchResourceVersion() {
    synchronized (lock) {
      return lastSyncResourceVersion;
    }
  }

  /** The server no longer has (or does not yet have) the last synced version. */
  void lastSyncUnavailable() {
    synchronized (lock) {
      lastSyncUnavailable = true;
    }
  }

  /**
   * A list (plain or streaming) completed at {@code resourceVersion}.
   *
   * @return whether it was a relist (not the first list)
   */
  boolean synced(@Nullable String resourceVersion) {
    synchronized (lock) {
      lastSyncResourceVersion = resourceVersion == null ? "" : resourceVersion;
      lastSyncUnavailable = false;
      lists++;
      lastError = null;
      lastEventTime = clock.instant();
      if (lists > 1) {
        // A relist: the changes between the two lists reach the cache as one, deletions late.
        faultedNow();
      }
      return lists > 1;
    }
  }

  /** A watch event or bookmark moved the version forward. */
  void observed(String resourceVersion) {
    synchronized (lock) {
      if (resourceVersion != null && !resourceVersion.isEmpty()) {
        lastSyncResourceVersion = resourceVersion;
      }
      lastEventTime = clock.instant();
    }
  }

  /** A watch is open; a plain one (not a streaming list) clears the last error. */
  void watchOpened(boolean clearError) {
    synchronized (lock) {
      watching = true;
      if (clearError) {
        lastError = null;
      }
    }
  }

  /** The watch ended, with {@code errorMessage} (null when it ended cleanly). */
  void watchEnded(@Nullable String errorMessage) {
    synchronized (lock) {
      watching = false;
      if (errorMessage != null) {
        lastError = errorMessage;
        faultedNow();
      }
    }
  }

  /**
   * Whether a fault was recorded within the past {@code windowNanos}, or the failure streak of the
   * last one is not over yet (no list completed and no watch opened since).
   */
  boolean faultedWithin(long windowNanos) {
    synchronized (lock) {
      return lastError != null || (faulted && clock.nanoTime() - faultNanos <= windowNanos);
    }
  }

  // Called under lock.
  private void faultedNow() {
    faulted = true;
    faultNanos = clock.nanoTime();
  }
}
