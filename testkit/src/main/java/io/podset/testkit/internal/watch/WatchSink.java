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

  /**
   * Breaks the stream as a lost connection would: {@code partial} (the start of an event, may be
   * empty) is sent, then the connection is closed without ending the stream (HTTP/2: the stream is
   * reset). Sinks that cannot send a partial event (WebSocket) just close. Idempotent, and after
   * {@link #close()} does nothing.
   */
  default void abort(byte[] partial) {
    close();
  }
}
