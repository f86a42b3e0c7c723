package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One open watch: splits the body into lines, decodes them and hands the events over on the
 * delivering thread, and reports the end once.
 */
final class HttpWatchStream<T extends HasMetadata> implements AsyncBody.Consumer<List<ByteBuffer>> {

  /** At most this much of a refused watch's body is read, to describe the refusal. */
  private static final int MAX_ERROR_BODY = 64 * 1024;

  private final HttpWatch<T> watch;
  private final WatchListener<T> listener;
  private final String url;
  // Confined to the delivering thread (the HTTP client calls consume one chunk at a time).
  private final JsonLines lines = new JsonLines();

  private final Object lock = new Object();
  // All guarded by lock. body: set once the watch is accepted. refusal: the body of a refused
  // watch being collected (null when streaming events). closed: by the client, nothing more is
  // reported; ended: the end was reported (or is being), nothing more is reported.
  private @Nullable AsyncBody body;
  private @Nullable ByteArrayOutputStream refusal;
  private boolean closed;
  private boolean ended;

  HttpWatchStream(HttpWatch<T> watch, WatchListener<T> listener, String url) {
    this.watch = watch;
    this.listener = listener;
    this.url = url;
  }

  /** Starts reading events; called once the server accepted the watch. */
  void start(AsyncBody accepted) {
    synchronized (lock) {
      body = accepted;
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
    for (ByteBuffer chunk : chunks) {
      if (!lines.feed(chunk, this::line)) {
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

  private boolean line(byte[] bytes, int offset, int length) {
    if (!isOpen()) {
      return false;
    }
    WatchEvent<T> event;
    try {
      event = watch.decode(bytes, offset, length, url);
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
          lines.hasPartialLine()
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
