package io.podset.runtime.informer.transport;

import java.nio.ByteBuffer;

/**
 * Splits a watch body that arrives in chunks into its events' bytes: newline-delimited JSON ({@link
 * JsonLines}) or length-prefixed protobuf ({@link ProtobufFrames}).
 *
 * <p>Not thread-safe: fed by one thread at a time (the connection's delivering thread).
 */
interface WatchFrames {

  /** Receives complete frames. */
  @FunctionalInterface
  interface Sink {
    /**
     * Takes one frame, {@code length} bytes of {@code bytes} from {@code offset} (valid only during
     * the call).
     *
     * @return false to stop: the rest of the chunk is dropped
     */
    boolean frame(byte[] bytes, int offset, int length);
  }

  /**
   * Feeds one chunk; complete frames go to {@code sink}.
   *
   * @return false if the sink asked to stop
   */
  boolean feed(ByteBuffer chunk, Sink sink);

  /** Whether a frame has started and not all of it has arrived. */
  boolean hasPartialFrame();
}
