package io.podset.testkit;

/**
 * The transport of one watch: each call sends one complete watch event. Implementations are
 * thread-safe and never block; calls made in order are delivered in order.
 */
interface WatchSink {

  /** Sends one serialized watch event ({@code {"type":...,"object":...}}). */
  void send(byte[] event);

  /** Ends the stream (chunked: final chunk; WebSocket: close frame). Idempotent. */
  void close();
}
