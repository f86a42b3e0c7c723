package io.podset.testkit.internal.proxy;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.podset.testkit.internal.watch.WatchFrame;
import io.podset.testkit.internal.watch.WatchSink;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The body of one watch response from the server behind a proxy, read chunk by chunk: either
 * collected whole (a refused watch's Status) or split into its newline-delimited event lines, each
 * sent to a sink as one frame. The server ending the body ends the sink's stream; a broken body, or
 * one that ends inside a line, breaks it ({@link WatchSink#abort}) with the partial line, so the
 * client sees what the server sent.
 *
 * <p>The body asks for its next chunk only once the previous one is handed over; chunks arrive one
 * at a time, on the HTTP client's thread.
 */
final class WatchLines implements AsyncBody.Consumer<List<ByteBuffer>> {

  private final Object lock = new Object();
  // Guarded by lock: the bytes of the line being read (collect mode: the whole body).
  private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
  // Guarded by lock: where lines go; null while collecting.
  private WatchSink sink;

  /** Reads the whole body; the future completes with its bytes when it ends. */
  CompletableFuture<byte[]> collect(AsyncBody body) {
    CompletableFuture<byte[]> whole =
        body.done()
            .thenApply(
                done -> {
                  synchronized (lock) {
                    return partial.toByteArray();
                  }
                });
    body.consume();
    return whole;
  }

  /** Sends each line of the body to {@code target}, then ends or breaks its stream. */
  void stream(WatchSink target, AsyncBody body) {
    synchronized (lock) {
      sink = target;
    }
    body.done()
        .whenComplete(
            (done, failure) -> {
              byte[] rest;
              synchronized (lock) {
                rest = partial.toByteArray();
                partial.reset();
              }
              if (failure == null && rest.length == 0) {
                target.close();
              } else {
                target.abort(rest);
              }
            });
    body.consume();
  }

  @Override
  public void consume(List<ByteBuffer> chunks, AsyncBody body) {
    synchronized (lock) {
      for (ByteBuffer chunk : chunks) {
        while (chunk.hasRemaining()) {
          byte b = chunk.get();
          partial.write(b);
          if (b == '\n' && sink != null) {
            byte[] line = partial.toByteArray();
            partial.reset();
            if (line.length > 1) {
              sink.send(WatchFrame.ofLine(line));
            }
          }
        }
      }
    }
    body.consume();
  }
}
