package io.podset.testkit.internal.watch;

/**
 * The transport of one watch: each call sends one complete watch event. Implementations are
 * thread-safe and never block; calls made in order are delivered in order. A frame may be shared
 * with other watches: sinks never modify it.
 */
public interface WatchSink {

  /** Sends one watch event. */
  void send(WatchFrame event);

  /** Ends the stream (chunked: final chunk; WebSocket: close frame). Idempotent. */
  void close();
}
