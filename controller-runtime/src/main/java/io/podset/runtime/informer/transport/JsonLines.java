package io.podset.runtime.informer.transport;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Splits a byte stream that arrives in chunks into lines (newline-delimited JSON, as a watch body
 * is): each complete line goes to a {@link Sink} as soon as its newline arrives, straight from the
 * chunk's own array when the line lies within one chunk, else from a buffer that collected its
 * pieces. Blank lines are skipped; a carriage return before the newline is dropped.
 *
 * <p>Not thread-safe: fed by one thread at a time (the connection's delivering thread).
 */
final class JsonLines implements WatchFrames {

  private static final int INITIAL_PARTIAL = 4096;
  private static final int MAX_KEPT_PARTIAL = 1 << 20;

  // The start of a line whose newline has not arrived yet: partial[0, partialLength).
  private byte[] partial = new byte[0];
  private int partialLength;

  @Override
  public boolean feed(ByteBuffer chunk, Sink sink) {
    byte[] bytes;
    int from;
    int end;
    if (chunk.hasArray()) {
      bytes = chunk.array();
      from = chunk.arrayOffset() + chunk.position();
      end = chunk.arrayOffset() + chunk.limit();
    } else {
      bytes = new byte[chunk.remaining()];
      chunk.duplicate().get(bytes);
      from = 0;
      end = bytes.length;
    }
    int start = from;
    for (int i = from; i < end; i++) {
      if (bytes[i] != '\n') {
        continue;
      }
      boolean go;
      if (partialLength == 0) {
        go = emit(bytes, start, i, sink);
      } else {
        append(bytes, start, i);
        go = emit(partial, 0, partialLength, sink);
        partialLength = 0;
        if (partial.length > MAX_KEPT_PARTIAL) {
          partial = new byte[INITIAL_PARTIAL]; // after an unusually large object
        }
      }
      start = i + 1;
      if (!go) {
        return false;
      }
    }
    append(bytes, start, end);
    return true;
  }

  /** Whether a line has started (other than with blanks) and its newline has not arrived. */
  @Override
  public boolean hasPartialFrame() {
    return !isBlank(partial, 0, partialLength);
  }

  private static boolean emit(byte[] bytes, int start, int end, Sink sink) {
    if (end > start && bytes[end - 1] == '\r') {
      end--;
    }
    if (isBlank(bytes, start, end)) {
      return true;
    }
    return sink.frame(bytes, start, end - start);
  }

  private void append(byte[] bytes, int start, int end) {
    int n = end - start;
    if (n == 0) {
      return;
    }
    if (partialLength + n > partial.length) {
      partial =
          Arrays.copyOf(
              partial, Math.max(INITIAL_PARTIAL, Math.max(partial.length * 2, partialLength + n)));
    }
    System.arraycopy(bytes, start, partial, partialLength, n);
    partialLength += n;
  }

  private static boolean isBlank(byte[] bytes, int start, int end) {
    for (int i = start; i < end; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }
}
