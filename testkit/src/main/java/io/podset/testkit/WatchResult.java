package io.podset.testkit;

import java.util.Objects;

/**
 * A watch that the HTTP layer opens once it has a transport (chunked HTTP or WebSocket).
 *
 * @param opener starts delivering events to a sink; returns the action that stops the watch
 */
record WatchResult(Opener opener) implements ApiResult {

  WatchResult {
    Objects.requireNonNull(opener, "opener");
  }

  @Override
  public int status() {
    return 200;
  }

  /** Starts a watch on a sink. */
  @FunctionalInterface
  interface Opener {
    /** Starts sending events; the returned action stops them (idempotent). */
    Runnable open(WatchSink sink);
  }
}
