package io.podset.testkit.internal.http;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Vert.x HTTP servers of the testkit (fake API servers and fault proxies): one Vert.x instance
 * shared by every server of the JVM, loopback only, each serving a {@link RequestPipeline} through
 * an {@link HttpFrontend}.
 */
public final class HttpServers {

  private static final Logger LOG = LoggerFactory.getLogger(HttpServers.class);

  private static final Object LOCK = new Object();

  /**
   * Guarded by LOCK: two event loops and a worker pool shared by every server. Requests whose
   * pipeline may block (latency faults, a proxy waiting for the server behind it, a watch only
   * until its headers) run on the workers: the pool bounds how many wait at once.
   */
  private static Vertx shared;

  private HttpServers() {}

  private static Vertx vertx() {
    synchronized (LOCK) {
      if (shared == null) {
        shared =
            Vertx.vertx(
                new VertxOptions()
                    .setUseDaemonThread(true)
                    .setEventLoopPoolSize(2)
                    .setWorkerPoolSize(64)
                    .setBlockedThreadCheckInterval(TimeUnit.SECONDS.toMillis(10)));
      }
      return shared;
    }
  }

  /** A server on 127.0.0.1 and {@code port} (0: a free one), not yet listening. */
  public static HttpServer create(int port) {
    return vertx()
        .createHttpServer(
            new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setMaxWebSocketFrameSize(1 << 20)
                .setMaxWebSocketMessageSize(16 << 20)
                .setMaxInitialLineLength(16 * 1024));
  }

  /**
   * Serves {@code pipeline} on {@code http} and waits until it listens.
   *
   * @param what what the server is, for the error message
   * @throws IllegalStateException if it cannot listen within 30 s
   */
  public static void listen(HttpServer http, RequestPipeline pipeline, String what) {
    http.requestHandler(new HttpFrontend(vertx(), pipeline));
    try {
      http.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the " + what + " could not listen: " + e.getMessage(), e);
    }
  }

  /** Stops {@code http} (and its connections), waiting at most 10 s; logs if it did not close. */
  public static void close(HttpServer http, String what) {
    try {
      http.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("The {} on port {} did not close cleanly", what, http.actualPort(), e);
    }
  }

  /**
   * The fabric8 configuration of a client for a server on {@code url} that asks for no credentials
   * (TLS trust is moot over plain HTTP; set so a client that upgrades does not check).
   */
  public static Config clientConfig(URI url, String namespace) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url.toString())
        .withNamespace(namespace)
        .withTrustCerts(true)
        .build();
  }
}
