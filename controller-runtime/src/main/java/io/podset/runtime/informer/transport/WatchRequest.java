package io.podset.runtime.informer.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * How to open a watch.
 *
 * @param resourceVersion the version to watch from ("" for "now", which on a plain watch makes the
 *     server send the current state as synthetic ADDED events)
 * @param timeout how long the server should keep the watch open before ending it cleanly
 * @param allowBookmarks ask the server for BOOKMARK events
 * @param sendInitialEvents a streaming list: send the state as ADDED events, then a bookmark
 *     annotated {@value WatchEvent#INITIAL_EVENTS_END}; implies {@code
 *     resourceVersionMatch=NotOlderThan}
 */
public record WatchRequest(
    String resourceVersion, Duration timeout, boolean allowBookmarks, boolean sendInitialEvents) {

  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public WatchRequest {
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
  }
}
