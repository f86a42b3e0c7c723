package io.podset.testkit.internal.http;

import io.netty.buffer.Unpooled;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.watch.WatchFrame;
import io.podset.testkit.internal.watch.WatchSink;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.ServerWebSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts Vert.x HTTP requests to the pipeline: with filters installed the pipeline runs on a worker
 * thread (filters may block), without them on the event loop; complete responses are written as is;
 * watches stream as chunked JSON lines or, when the client asked for an upgrade, as one WebSocket
 * text message per event.
 */
public final class HttpFrontend implements Handler<HttpServerRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(HttpFrontend.class);

  private final Vertx vertx;
  private final RequestPipeline pipeline;

  public HttpFrontend(Vertx vertx, RequestPipeline pipeline) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
  }

  @Override
  public void handle(HttpServerRequest request) {
    boolean webSocket = "websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
    if (webSocket) {
      request.pause();
      dispatch(request, new byte[0], true);
      return;
    }
    request
        .body()
        .onSuccess(body -> dispatch(request, body.getBytes(), false))
        .onFailure(e -> request.response().setStatusCode(400).end());
  }

  private void dispatch(HttpServerRequest request, byte[] body, boolean webSocket) {
    ApiRequest apiRequest = toApiRequest(request, body, webSocket);
    if (!pipeline.mayBlock()) {
      // The handler works in memory under short locks: run it on the event loop.
      complete(request, apiRequest, webSocket, pipeline.handle(apiRequest), null);
      return;
    }
    vertx
        .executeBlocking(() -> pipeline.handle(apiRequest), false)
        .onComplete(
            outcome ->
                complete(
                    request,
                    apiRequest,
                    webSocket,
                    outcome.succeeded() ? outcome.result() : null,
                    outcome.cause()));
  }

  private void complete(
      HttpServerRequest request,
      ApiRequest apiRequest,
      boolean webSocket,
      ApiResult result,
      Throwable failure) {
    if (failure != null) {
      LOG.error("Request pipeline failed for {}", apiRequest.path(), failure);
      respond(
          request,
          ApiResponse.error(new StatusError(500, "InternalError", String.valueOf(failure), null)));
      return;
    }
    if (result instanceof WatchResult watch) {
      if (webSocket) {
        upgrade(request, watch);
      } else {
        stream(request, watch);
      }
    } else if (result instanceof CutResponse cut) {
      cut(request, cut);
    } else {
      respond(request, (ApiResponse) result);
    }
  }

  private static ApiRequest toApiRequest(
      HttpServerRequest request, byte[] body, boolean webSocket) {
    Map<String, String> query = new HashMap<>();
    request.params().forEach(e -> query.putIfAbsent(e.getKey(), e.getValue()));
    Map<String, String> headers = new HashMap<>();
    // The first value of a repeated header, except Impersonate-Group and the other impersonation
    // headers, whose values are all kept, one per line (a header value has no line breaks).
    request
        .headers()
        .forEach(
            e ->
                headers.merge(
                    e.getKey().toLowerCase(Locale.ROOT),
                    e.getValue(),
                    (first, next) ->
                        e.getKey().regionMatches(true, 0, "impersonate-", 0, 12)
                            ? first + "\n" + next
                            : first));
    return new ApiRequest(request.method().name(), request.path(), query, headers, body, webSocket);
  }

  private static void respond(HttpServerRequest request, ApiResponse response) {
    HttpServerResponse http = request.response();
    http.setStatusCode(response.status());
    http.putHeader("Content-Type", response.contentType());
    response.headers().forEach(http::putHeader);
    // Over the body, not a copy of it: the body is never modified once answered.
    http.end(Buffer.buffer(Unpooled.wrappedBuffer(response.body())));
  }

  /** Sends the headers and the first bytes of the body, then breaks the connection. */
  private static void cut(HttpServerRequest request, CutResponse cut) {
    ApiResponse response = cut.response();
    HttpServerResponse http = request.response();
    http.setStatusCode(response.status());
    http.putHeader("Content-Type", response.contentType());
    response.headers().forEach(http::putHeader);
    http.putHeader("Content-Length", Integer.toString(response.body().length));
    http.write(Buffer.buffer(response.body()).slice(0, cut.bytes()))
        .onComplete(written -> breakConnection(request));
  }

  /** Breaks the connection a response is sent on: HTTP/2 resets the stream, HTTP/1 closes it. */
  private static void breakConnection(HttpServerRequest request) {
    if (request.version() == HttpVersion.HTTP_2) {
      request.response().reset();
    } else {
      request.connection().close();
    }
  }

  private void stream(HttpServerRequest request, WatchResult watch) {
    HttpServerResponse http = request.response();
    http.setStatusCode(200);
    http.setChunked(true);
    http.putHeader("Content-Type", "application/json");
    http.putHeader("Transfer-Encoding", "chunked");
    http.writeHead();
    AtomicReference<Runnable> stop = new AtomicReference<>();
    http.closeHandler(
        v -> {
          Runnable s = stop.get();
          if (s != null) {
            s.run();
          }
        });
    stop.set(watch.opener().open(new ChunkedSink(request, vertx.getOrCreateContext())));
    if (http.closed()) {
      stop.get().run();
    }
  }

  private void upgrade(HttpServerRequest request, WatchResult watch) {
    request
        .toWebSocket()
        .onSuccess(
            socket -> {
              AtomicReference<Runnable> stop = new AtomicReference<>();
              socket.closeHandler(
                  v -> {
                    Runnable s = stop.get();
                    if (s != null) {
                      s.run();
                    }
                  });
              stop.set(watch.opener().open(new WebSocketSink(socket, vertx.getOrCreateContext())));
              if (socket.isClosed()) {
                stop.get().run();
              }
            })
        .onFailure(e -> LOG.debug("WebSocket upgrade failed", e));
  }

  /**
   * The frames of one watch not yet written, and the drain that writes them on the connection's own
   * context, in the order {@link #send} was called: the store calls sinks under its lock from any
   * thread, and a write from a foreign thread takes the connection's lock, which the event loop may
   * hold while it waits for the store lock to open a new stream on the same HTTP/2 connection (a
   * deadlock). One drain task is scheduled per burst of events, not one per event.
   */
  private abstract static class BatchingSink implements WatchSink {
    private final Context context;
    private final Object lock = new Object();
    // Guarded by lock: frames sent and not yet handed to a drain; a drain is scheduled iff
    // non-empty.
    private List<WatchFrame> pending = new ArrayList<>();
    // Confined to context.
    private boolean ended;

    BatchingSink(Context context) {
      this.context = context;
    }

    @Override
    public final void send(WatchFrame event) {
      boolean schedule;
      synchronized (lock) {
        schedule = pending.isEmpty();
        pending.add(event);
      }
      if (schedule) {
        context.runOnContext(v -> drain());
      }
    }

    @Override
    public final void close() {
      finish(null);
    }

    @Override
    public final void abort(byte[] partial) {
      finish(partial.clone());
    }

    /** Writes what is pending, then ends the stream, or breaks it after {@code partial}. */
    private void finish(byte[] partial) {
      context.runOnContext(
          v -> {
            if (ended) {
              return;
            }
            drain();
            ended = true;
            if (partial == null) {
              end();
            } else {
              breakOff(partial);
            }
          });
    }

    private void drain() {
      List<WatchFrame> frames;
      synchronized (lock) {
        frames = pending;
        pending = new ArrayList<>();
      }
      if (!ended && !frames.isEmpty() && !isClosed()) {
        write(frames);
      }
    }

    /** On the context: whether the peer or the server closed the stream. */
    abstract boolean isClosed();

    /** On the context: writes frames, oldest first (one or more). */
    abstract void write(List<WatchFrame> frames);

    /** On the context, once: ends the stream unless it is closed already. */
    abstract void end();

    /**
     * On the context, once (instead of {@link #end}): sends {@code partial} if the transport can,
     * then breaks the connection.
     */
    abstract void breakOff(byte[] partial);
  }

  /** Chunked HTTP: one JSON line per event, the lines of a burst in one chunk. */
  private static final class ChunkedSink extends BatchingSink {
    private final HttpServerRequest request;
    private final HttpServerResponse response;

    ChunkedSink(HttpServerRequest request, Context context) {
      super(context);
      this.request = request;
      this.response = request.response();
    }

    @Override
    boolean isClosed() {
      return response.closed();
    }

    @Override
    void write(List<WatchFrame> frames) {
      if (frames.size() == 1) {
        response.write(frames.get(0).buffer());
        return;
      }
      int length = 0;
      for (WatchFrame frame : frames) {
        length += frame.line().length;
      }
      Buffer chunk = Buffer.buffer(length);
      for (WatchFrame frame : frames) {
        chunk.appendBytes(frame.line());
      }
      response.write(chunk);
    }

    @Override
    void end() {
      if (!response.closed() && !response.ended()) {
        response.end();
      }
    }

    @Override
    void breakOff(byte[] partial) {
      if (response.closed() || response.ended()) {
        return;
      }
      if (partial.length == 0) {
        breakConnection(request);
        return;
      }
      response.write(Buffer.buffer(partial)).onComplete(written -> breakConnection(request));
    }
  }

  /** WebSocket: one text message per event. */
  private static final class WebSocketSink extends BatchingSink {
    private final ServerWebSocket socket;

    WebSocketSink(ServerWebSocket socket, Context context) {
      super(context);
      this.socket = socket;
    }

    @Override
    boolean isClosed() {
      return socket.isClosed();
    }

    @Override
    void write(List<WatchFrame> frames) {
      for (WatchFrame frame : frames) {
        socket.writeTextMessage(frame.text());
      }
    }

    @Override
    void end() {
      if (!socket.isClosed()) {
        socket.close();
      }
    }

    /** A WebSocket message is whole or absent: the stream just closes. */
    @Override
    void breakOff(byte[] partial) {
      end();
    }
  }
}
