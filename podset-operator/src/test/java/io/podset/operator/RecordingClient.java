package io.podset.operator;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The reconciler's client for tests: it records every write it sends ({@code METHOD path}) and can
 * refuse pod creations with a given HTTP status, answered by a local server with a Kubernetes
 * {@code Status} body, so the reconciler sees exactly what a refusing API server would send.
 *
 * <p>Stands in for the testkit's request journal and fault injection, which do not exist yet.
 */
final class RecordingClient implements AutoCloseable {

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private final List<String> writes = new CopyOnWriteArrayList<>();
  private final List<String> reads = new CopyOnWriteArrayList<>();
  private final List<String> refused = new CopyOnWriteArrayList<>();
  private final List<Long> refusedAtNanos = new CopyOnWriteArrayList<>();
  private final AtomicReference<Refusal> refusal = new AtomicReference<>();
  private final HttpServer refuser;
  private final KubernetesClient client;

  /** How pod creations are refused. */
  record Refusal(int code, String reason, String message) {}

  RecordingClient(Config base) {
    try {
      refuser = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    refuser.createContext(
        "/",
        exchange -> {
          Refusal r = refusal.get();
          int code = r == null ? 500 : r.code();
          String body =
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                  + "\"message\":\""
                  + (r == null ? "no refusal configured" : r.message().replace("\"", "\\\""))
                  + "\",\"reason\":\""
                  + (r == null ? "InternalError" : r.reason())
                  + "\",\"code\":"
                  + code
                  + "}";
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(code, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    refuser.start();
    URI refuserUri = URI.create("http://127.0.0.1:" + refuser.getAddress().getPort());
    Config config = new ConfigBuilder(base).withRequestRetryBackoffLimit(0).build();
    Interceptor interceptor =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if (READS.contains(request.method())) {
              reads.add(request.method() + " " + request.uri().getPath());
              return;
            }
            String path = request.uri().getPath();
            boolean podCreate = "POST".equals(request.method()) && path.endsWith("/pods");
            if (podCreate && refusal.get() != null) {
              refused.add(request.method() + " " + path);
              refusedAtNanos.add(System.nanoTime());
              builder.uri(refuserUri.resolve(path));
              return;
            }
            writes.add(request.method() + " " + path);
          }
        };
    client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor("test-recording", interceptor))
            .build();
  }

  KubernetesClient client() {
    return client;
  }

  /** The reads sent ({@code METHOD path}), oldest first. */
  List<String> reads() {
    return List.copyOf(reads);
  }

  /** Refuses pod creations from now on with {@code code}, {@code reason} and {@code message}. */
  void refusePodCreates(int code, String reason, String message) {
    refusal.set(new Refusal(code, reason, message));
  }

  /** Stops refusing. */
  void allow() {
    refusal.set(null);
  }

  /** The writes that reached the API server, in order. */
  List<String> writes() {
    return List.copyOf(writes);
  }

  /** The pod creations that were refused. */
  List<String> refused() {
    return List.copyOf(refused);
  }

  /** When each refused pod creation was sent ({@link System#nanoTime()}). */
  List<Long> refusedAtNanos() {
    return List.copyOf(refusedAtNanos);
  }

  void clear() {
    writes.clear();
    refused.clear();
    refusedAtNanos.clear();
  }

  @Override
  public void close() {
    client.close();
    refuser.stop(0);
  }
}
