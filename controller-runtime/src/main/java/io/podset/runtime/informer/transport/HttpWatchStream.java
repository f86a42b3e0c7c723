package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One open watch: splits the body into frames (JSON lines or protobuf frames, by the answer's
 * content type), decodes them and hands the events over on the delivering thread, and reports the
 * end once.
 */
final class HttpWatchStream<T extends HasMetadata> implements AsyncBody.Consumer<List<ByteBuffer>> {

  /** At most this much of a refused watch's body is read, to describe the refusal. */
  private static final int MAX_ERROR_BODY = 64 * 1024;

  /** Decodes one frame into an event, or throws what ends the watch. */
  @FunctionalInterface
  interface FrameDecoder<T extends HasMetadata> {
    WatchEvent<T> decode(byte[] bytes, int offset, int length, String url);
  }

  private final WatchListener<T> listener;
  private final String url;

  private final Object lock = new Object();
  // All guarded by lock. body, frames, decoder: set once the watch is accepted (frames is then
  // used only by the delivering thread: the HTTP client calls consume one chunk at a time).
  // refusal: the body of a refused watch being collected (null when streaming events). closed: by
  // the client, nothing more is reported; ended: the end was reported (or is being), nothing more
  // is reported.
  private @Nullable AsyncBody body;
  private @Nullable WatchFrames frames;
  private @Nullable FrameDecoder<T> decoder;
  private @Nullable ByteArrayOutputStream refusal;
  private boolean closed;
  private boolean ended;

  HttpWatchStream(WatchListener<T> listener, String url) {
    this.listener = listener;
    this.url = url;
  }

  /**
   * Starts reading events, split by {@code splitter} and decoded by {@code eventDecoder}; called
   * once the server accepted the watch.
   */
  void start(AsyncBody accepted, WatchFrames splitter, FrameDecoder<T> eventDecoder) {
    synchronized (lock) {
      body = accepted;
      frames = splitter;
      decoder = eventDecoder;
    }
    accepted.done().whenComplete((ignored, error) -> bodyEnded(error));
    accepted.consume();
  }

  void collectRefusal() {
    synchronized (lock) {
      refusal = new ByteArrayOutputStream();
    }
  }

  byte[] refusalBody() {
    synchronized (lock) {
      return refusal == null ? new byte[0] : refusal.toByteArray();
    }
  }

  @Override
  public void consume(List<ByteBuffer> chunks, AsyncBody from) {
    if (collectingRefusal(chunks)) {
      from.consume();
      return;
    }
    WatchFrames splitter = frames();
    for (ByteBuffer chunk : chunks) {
      boolean go;
      try {
        go = splitter.feed(chunk, this::frame);
      } catch (IllegalStateException e) { // a frame's length out of bounds
        fail(new KubernetesClientException("watch of " + url + ": " + e.getMessage(), e));
        return;
      }
      if (!go) {
        return; // ended: no more chunks are asked for
      }
    }
    if (isOpen()) {
      from.consume();
    }
  }

  private boolean collectingRefusal(List<ByteBuffer> chunks) {
    synchronized (lock) {
      if (refusal == null) {
        return false;
      }
      for (ByteBuffer chunk : chunks) {
        ByteBuffer copy = chunk.duplicate();
        while (copy.hasRemaining() && refusal.size() < MAX_ERROR_BODY) {
          refusal.write(copy.get());
        }
      }
      return true;
    }
  }

  private WatchFrames frames() {
    synchronized (lock) {
      return Objects.requireNonNull(frames, "consumed before start");
    }
  }

  private boolean frame(byte[] bytes, int offset, int length) {
    FrameDecoder<T> eventDecoder;
    synchronized (lock) {
      if (closed || ended) {
        return false;
      }
      eventDecoder = Objects.requireNonNull(decoder, "consumed before start");
    }
    WatchEvent<T> event;
    try {
      event = eventDecoder.decode(bytes, offset, length, url);
    } catch (KubernetesClientException e) {
      fail(e);
      return false;
    }
    try {
      listener.onEvent(event);
    } catch (RuntimeException e) {
      fail(e);
      return false;
    }
    return true;
  }

  private void bodyEnded(Throwable error) {
    if (error == null) {
      end(
          frames().hasPartialFrame()
              ? new KubernetesClientException(
                  "watch of " + url + ": the stream ended in the middle of an event")
              : null);
    } else {
      end(new KubernetesClientException("watch of " + url + " broke: " + error, error));
    }
  }

  /** Ends the watch with {@code cause} and stops reading. */
  private void fail(RuntimeException cause) {
    end(cause);
    cancelBody();
  }

  private void end(@Nullable RuntimeException cause) {
    synchronized (lock) {
      if (closed || ended) {
        return;
      }
      ended = true;
    }
    listener.onClose(cause);
  }

  private boolean isOpen() {
    synchronized (lock) {
      return !closed && !ended;
    }
  }

  /** Closed by the client: nothing more is reported. */
  void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    cancelBody();
  }

  /**
   * Stops a body still being read. A body that ended is left alone: its connection went back to the
   * client's pool, and cancelling would reset it under the next request that took it.
   */
  private void cancelBody() {
    AsyncBody b;
    synchronized (lock) {
      b = body;
    }
    if (b != null && !b.done().isDone()) {
      b.cancel();
    }
  }
}
