package io.podset.testkit.internal.watch;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One serialized watch event ({@code {"type":...,"object":...}}), built once and shared by every
 * watch that sends it: the JSON line of chunked streams, a Vert.x buffer over it (no copy) and its
 * text for WebSocket messages (computed at most once, on first use). A frame of {@link #of} also
 * gives back the object's JSON ({@link #object}), so whoever keeps the frame need not keep that
 * too. Immutable and thread-safe.
 */
public final class WatchFrame {

  private static final byte[] TYPE_PREFIX = "{\"type\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] OBJECT_PREFIX = "\",\"object\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SUFFIX = "}\n".getBytes(StandardCharsets.UTF_8);

  /** The event as one JSON line, newline included. */
  private final byte[] line;

  /** Where the object's JSON starts in {@link #line} (it ends before the suffix); -1: unknown. */
  private final int objectStart;

  // Derived form, set once by the first thread to need it (a benign race: equal values).
  private volatile String text;

  private WatchFrame(byte[] line, int objectStart) {
    this.line = line;
    this.objectStart = objectStart;
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
    int objectStart = at;
    at = put(line, at, objectJson);
    put(line, at, SUFFIX);
    return new WatchFrame(line, objectStart);
  }

  /**
   * The frame of an event already serialized as one JSON line, as a watch response of another
   * server carries it; a newline is appended when it has none.
   */
  public static WatchFrame ofLine(byte[] jsonLine) {
    Objects.requireNonNull(jsonLine, "jsonLine");
    if (jsonLine.length > 0 && jsonLine[jsonLine.length - 1] == '\n') {
      return new WatchFrame(jsonLine.clone(), -1);
    }
    byte[] line = Arrays.copyOf(jsonLine, jsonLine.length + 1);
    line[jsonLine.length] = '\n';
    return new WatchFrame(line, -1);
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

  /**
   * The JSON line as a Vert.x buffer over the line itself, not a copy (a stored change keeps its
   * frame: a copy would double what it keeps); Vert.x writes an unreleasable slice of it.
   */
  public Buffer buffer() {
    return Buffer.buffer(Unpooled.wrappedBuffer(line));
  }

  /**
   * A copy of the object's JSON inside a frame of {@link #of}.
   *
   * @throws IllegalStateException for a frame of {@link #ofLine}
   */
  public byte[] object() {
    if (objectStart < 0) {
      throw new IllegalStateException("a frame of a whole line does not know its object");
    }
    return Arrays.copyOfRange(line, objectStart, line.length - SUFFIX.length);
  }

  @Override
  public String toString() {
    return new String(Arrays.copyOf(line, Math.min(line.length, 120)), StandardCharsets.UTF_8);
  }
}
