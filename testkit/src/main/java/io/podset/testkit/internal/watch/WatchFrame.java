package io.podset.testkit.internal.watch;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One serialized watch event ({@code {"type":...,"object":...}}), built once and shared by every
 * watch that sends it: the JSON line of chunked streams, its text for WebSocket messages and its
 * Vert.x buffer are each computed at most once, on first use. Immutable and thread-safe.
 */
public final class WatchFrame {

  private static final byte[] TYPE_PREFIX = "{\"type\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] OBJECT_PREFIX = "\",\"object\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SUFFIX = "}\n".getBytes(StandardCharsets.UTF_8);

  /** The event as one JSON line, newline included. */
  private final byte[] line;

  // Derived forms, each set once by the first thread to need it (a benign race: equal values).
  private volatile String text;
  private volatile Buffer buffer;

  private WatchFrame(byte[] line) {
    this.line = line;
  }

  /** The frame of an event of {@code type} (ADDED, MODIFIED, ...) carrying {@code objectJson}. */
  public static WatchFrame of(String type, byte[] objectJson) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(objectJson, "objectJson");
    byte[] typeBytes = type.getBytes(StandardCharsets.UTF_8);
    byte[] line =
        new byte
            [TYPE_PREFIX.length
                + typeBytes.length
                + OBJECT_PREFIX.length
                + objectJson.length
                + SUFFIX.length];
    int at = 0;
    at = put(line, at, TYPE_PREFIX);
    at = put(line, at, typeBytes);
    at = put(line, at, OBJECT_PREFIX);
    at = put(line, at, objectJson);
    put(line, at, SUFFIX);
    return new WatchFrame(line);
  }

  /**
   * The frame of an event already serialized as one JSON line, as a watch response of another
   * server carries it; a newline is appended when it has none.
   */
  public static WatchFrame ofLine(byte[] jsonLine) {
    Objects.requireNonNull(jsonLine, "jsonLine");
    if (jsonLine.length > 0 && jsonLine[jsonLine.length - 1] == '\n') {
      return new WatchFrame(jsonLine.clone());
    }
    byte[] line = Arrays.copyOf(jsonLine, jsonLine.length + 1);
    line[jsonLine.length] = '\n';
    return new WatchFrame(line);
  }

  private static int put(byte[] target, int at, byte[] part) {
    System.arraycopy(part, 0, target, at, part.length);
    return at + part.length;
  }

  /** The JSON line, newline included; callers must not modify it. */
  public byte[] line() {
    return line;
  }

  /** The event without its newline, as text (one WebSocket text message). */
  public String text() {
    String result = text;
    if (result == null) {
      result = new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
      text = result;
    }
    return result;
  }

  /** The JSON line as a Vert.x buffer; Vert.x writes a slice of it, so one buffer serves all. */
  public Buffer buffer() {
    Buffer result = buffer;
    if (result == null) {
      result = Buffer.buffer(line);
      buffer = result;
    }
    return result;
  }

  @Override
  public String toString() {
    return new String(Arrays.copyOf(line, Math.min(line.length, 120)), StandardCharsets.UTF_8);
  }
}
