package io.podset.benchmarks.operator;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The latency driver's HTTP client: JSON merge patches over keep-alive connections from one Vert.x
 * event loop, and watches whose events it reads and drops (to warm the server's fan-out).
 *
 * <p>It runs in the server's JVM, on the server's only CPU, so whatever it costs per request is
 * taken from the server. The JDK's {@code java.net.http} client it replaces started a thread for
 * almost every request (4061 for 4000 patches in {@code PatchDriverTest}; a latency run's server
 * JVM reached Thread-14003) and handed each response from its selector thread to one: in a latency
 * run its threads used 6.6 s of CPU for 14k updates, two thirds of what the fake server's event
 * loops used (9.7 s), and the two together saturated that CPU at 1000 updates/s.
 */
final class PatchDriver implements AutoCloseable {

  /** What a sent patch's completion gets: its status, or -1 and the failure. */
  @FunctionalInterface
  interface Completion {
    void done(int status, Throwable failure);
  }

  private final Vertx vertx;
  private final HttpClient client;
  private final URI url;

  /**
   * A driver of at most {@code connections} keep-alive connections to the server at {@code url}.
   */
  PatchDriver(URI url, int connections) {
    this.url = Objects.requireNonNull(url, "url");
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(connections));
  }

  /**
   * Sends a JSON merge patch of {@code path} (absolute, from the server's root); {@code completion}
   * runs on the driver's event loop once the whole response was read.
   */
  void patch(String path, String body, Completion completion) {
    client
        .request(
            request(HttpMethod.PATCH, path)
                .putHeader("Content-Type", "application/merge-patch+json"))
        .compose(request -> request.send(Buffer.buffer(body)))
        .compose(response -> response.body().map(ignored -> response.statusCode()))
        .onComplete(
            result -> {
              if (result.succeeded()) {
                completion.done(result.result(), null);
              } else {
                completion.done(-1, result.cause());
              }
            });
  }

  /**
   * Opens a watch of {@code path} (a collection with {@code ?watch=true}) over HTTP streaming and
   * one over WebSocket, the two ways contenders watch; both read and drop the events until closed.
   */
  AutoCloseable watch(String path) throws Exception {
    HttpClientRequest stream = await(client.request(request(HttpMethod.GET, path)));
    HttpClientResponse response = await(stream.send());
    response.handler(ignored -> {});
    WebSocketClient sockets = vertx.createWebSocketClient();
    WebSocket socket =
        await(
            sockets.connect(
                new WebSocketConnectOptions()
                    .setHost(url.getHost())
                    .setPort(url.getPort())
                    .setURI(path)
                    .putHeader("User-Agent", Control.DRIVER_AGENT)));
    socket.handler(ignored -> {});
    return () -> {
      stream.reset();
      await(socket.close());
      await(sockets.close());
    };
  }

  private RequestOptions request(HttpMethod method, String path) {
    return new RequestOptions()
        .setMethod(method)
        .setHost(url.getHost())
        .setPort(url.getPort())
        .setURI(path)
        .putHeader("User-Agent", Control.DRIVER_AGENT);
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    // Closing the Vert.x instance closes its clients; composed after the client's own close, it ran
    // on the event loop it was stopping and never completed.
    await(vertx.close());
  }
}
