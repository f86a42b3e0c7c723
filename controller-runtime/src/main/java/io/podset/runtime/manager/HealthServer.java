package io.podset.runtime.manager;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A small HTTP server for probes and metrics (the JDK's server is enough for a handful of requests
 * a second). Each path maps to a supplier of (status, body).
 */
final class HealthServer implements AutoCloseable {

  /** A response: HTTP status, content type and body. */
  record Response(int status, String contentType, String body) {
    static Response text(int status, String body) {
      return new Response(status, "text/plain; charset=utf-8", body);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private HealthServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code port} on all interfaces (0 is not allowed here: the caller disables the server
   * instead) and serves the given paths.
   *
   * @throws IllegalArgumentException naming {@code option} when the port is in use
   */
  static HealthServer start(
      String option, String bindAddress, int port, Map<String, Supplier<Response>> routes) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
    } catch (BindException e) {
      throw new IllegalArgumentException(
          option + " " + port + " is already in use (" + e.getMessage() + ")", e);
    } catch (IOException e) {
      throw new UncheckedIOException(option + " " + port + ": cannot listen: " + e.getMessage(), e);
    }
    routes.forEach((path, supplier) -> server.createContext(path, handler(path, supplier)));
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "podset-http-" + port);
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.start();
    return new HealthServer(server, executor);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static HttpHandler handler(String path, Supplier<Response> supplier) {
    return exchange -> {
      try (exchange) {
        if (!exchange.getRequestURI().getPath().equals(path)) {
          send(exchange, Response.text(404, "not found\n"));
          return;
        }
        Response response;
        try {
          response = supplier.get();
        } catch (RuntimeException e) {
          response = Response.text(500, "internal error: " + e + "\n");
        }
        send(exchange, response);
      }
    };
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(response.status(), head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
