package io.podset.runtime.client;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A minimal HTTP server on the loopback interface that answers as a test scripts it, and a fabric8
 * client pointed at it with fabric8's own retries off (each request reaches the handler once).
 * Shared by the tests that need exact control of the bytes the client reads.
 */
public final class LocalHttpServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;
  private final KubernetesClient client;

  private LocalHttpServer(HttpServer server, ExecutorService executor, KubernetesClient client) {
    this.server = server;
    this.executor = executor;
    this.client = client;
  }

  /** Starts a server whose {@code threads} threads pass every request to {@code handler}. */
  public static LocalHttpServer start(int threads, HttpHandler handler) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    server.setExecutor(executor);
    server.createContext("/", handler);
    server.start();
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
            .withRequestRetryBackoffLimit(0)
            .build();
    return new LocalHttpServer(
        server, executor, new KubernetesClientBuilder().withConfig(config).build());
  }

  /** The client of this server. */
  public KubernetesClient client() {
    return client;
  }

  /** Closes the client, then stops the server and its threads. */
  @Override
  public void close() {
    client.close();
    server.stop(0);
    executor.shutdownNow();
  }
}
