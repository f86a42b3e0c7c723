package io.podset.runtime.informer.transport;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Splits a protobuf watch body ({@code application/vnd.kubernetes.protobuf;stream=watch}: each
 * event's bytes after their length as a 4-byte big-endian integer) into frames: a frame that lies
 * within one chunk goes to the sink straight from the chunk's array, one split across chunks from a
 * buffer that collected its pieces.
 *
 * <p>Not thread-safe: fed by one thread at a time.
 */
final class ProtobufFrames implements WatchFrames {

  /** A frame longer than this is refused (the API server's objects are at most a few MB). */
  static final int MAX_FRAME = 64 << 20;

  private static final int MAX_KEPT_BUFFER = 1 << 20;

  // The bytes of a frame (its 4-byte length first) that did not all arrive yet: pending[0, have).
  private byte[] pending = new byte[0];
  private int have;

  @Override
  public boolean feed(ByteBuffer chunk, Sink sink) {
    byte[] bytes;
    int at;
    int end;
    if (chunk.hasArray()) {
      bytes = chunk.array();
      at = chunk.arrayOffset() + chunk.position();
      end = chunk.arrayOffset() + chunk.limit();
    } else {
      bytes = new byte[chunk.remaining()];
      chunk.duplicate().get(bytes);
      at = 0;
      end = bytes.length;
    }
    if (have > 0) {
      at = complete(bytes, at, end);
      if (!pendingComplete()) {
        return true; // the chunk ended first
      }
      boolean go = sink.frame(pending, 4, have - 4);
      have = 0;
      if (pending.length > MAX_KEPT_BUFFER) {
        pending = new byte[0]; // after an unusually large object
      }
      if (!go) {
        return false;
      }
    }
    while (end - at >= 4) {
      int length = length(bytes, at);
      if (end - at - 4 < length) {
        break;
      }
      if (!sink.frame(bytes, at + 4, length)) {
        return false;
      }
      at += 4 + length;
    }
    append(bytes, at, end);
    return true;
  }

  @Override
  public boolean hasPartialFrame() {
    return have > 0;
  }

  /**
   * Adds to the pending frame what it still lacks, from {@code bytes[at, end)}; returns where the
   * rest of the chunk starts.
   */
  private int complete(byte[] bytes, int at, int end) {
    if (have < 4) {
      int n = Math.min(4 - have, end - at);
      append(bytes, at, at + n);
      at += n;
      if (have < 4) {
        return at;
      }
    }
    int n = Math.min(4 + length(pending, 0) - have, end - at);
    append(bytes, at, at + n);
    return at + n;
  }

  private boolean pendingComplete() {
    return have >= 4 && have == 4 + length(pending, 0);
  }

  private static int length(byte[] bytes, int at) {
    int length =
        ((bytes[at] & 0xff) << 24)
            | ((bytes[at + 1] & 0xff) << 16)
            | ((bytes[at + 2] & 0xff) << 8)
            | (bytes[at + 3] & 0xff);
    if (length < 0 || length > MAX_FRAME) {
      throw new IllegalStateException(
          "a protobuf watch frame of "
              + Integer.toUnsignedString(length)
              + " bytes, beyond the "
              + MAX_FRAME
              + " a frame may have");
    }
    return length;
  }

  private void append(byte[] bytes, int start, int end) {
    int n = end - start;
    if (n == 0) {
      return;
    }
    if (have + n > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(4096, Math.max(pending.length * 2, have + n)));
    }
    System.arraycopy(bytes, start, pending, have, n);
    have += n;
  }
}
