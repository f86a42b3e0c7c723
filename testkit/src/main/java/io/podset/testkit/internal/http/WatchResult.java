package io.podset.testkit.internal.http;

import io.podset.testkit.internal.watch.WatchSink;
import java.util.Objects;

/**
 * A watch that the HTTP layer opens once it has a transport (chunked HTTP or WebSocket).
 *
 * @param opener starts delivering events to a sink; returns the action that stops the watch
 */
public record WatchResult(Opener opener) implements ApiResult {

  public WatchResult {
    Objects.requireNonNull(opener, "opener");
  }

  @Override
  public int status() {
    return 200;
  }

  /** Starts a watch on a sink. */
  @FunctionalInterface
  public interface Opener {
    /** Starts sending events; the returned action stops them (idempotent). */
    Runnable open(WatchSink sink);
  }
}
