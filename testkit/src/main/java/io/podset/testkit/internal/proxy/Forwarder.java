package io.podset.testkit.internal.proxy;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpHeaders;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.http.RequestInfo;
import io.podset.testkit.internal.http.WatchResult;
import io.podset.testkit.internal.resource.StatusError;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The end of a proxy's request pipeline: sends each request on to the API server behind (through a
 * fabric8 HTTP client, which authenticates and speaks TLS as its {@code Config} says) and returns
 * its answer: a complete response as is (status, headers, body), a watch that the server accepted
 * as a {@link WatchResult} streaming the server's event lines, one frame per line.
 *
 * <p>What is forwarded: method, path, query, body and the client's headers except hop-by-hop ones,
 * {@code Host}, {@code Authorization} (the client behind authenticates as its own configuration
 * says) and {@code Accept-Encoding}. Watches are asked for as JSON lines ({@code Accept:
 * application/json}), whatever the client accepts. A server that cannot be reached is answered with
 * 503 and a Status naming it. Not forwarded as streams: {@code exec}, {@code attach}, {@code
 * portforward} and followed logs (their answers are read whole).
 *
 * <p>Blocks the calling thread until the server answered (for a watch: its headers). Thread-safe.
 */
public final class Forwarder implements RequestFilter.Chain {

  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "host",
          "authorization",
          "accept-encoding",
          "content-length",
          "connection",
          "keep-alive",
          "proxy-connection",
          "transfer-encoding",
          "te",
          "trailer",
          "upgrade",
          "http2-settings",
          "sec-websocket-key",
          "sec-websocket-version",
          "sec-websocket-extensions",
          "sec-websocket-protocol");

  /** Response headers the front end writes itself, or that no longer hold for the body read. */
  private static final Set<String> NOT_RETURNED =
      Set.of(
          "content-type",
          "content-length",
          "content-encoding",
          "connection",
          "keep-alive",
          "transfer-encoding",
          "trailer",
          "upgrade");

  private final HttpClient http;
  private final String upstream;
  private final Duration timeout;

  /**
   * @param http a client for the server behind that does not retry by itself
   * @param upstream the server's URL, such as {@code https://127.0.0.1:6443}
   * @param timeout how long to wait for a complete answer, or for a watch's headers
   */
  public Forwarder(HttpClient http, String upstream, Duration timeout) {
    this.http = Objects.requireNonNull(http, "http");
    Objects.requireNonNull(upstream, "upstream");
    this.upstream =
        upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public ApiResult proceed(ApiRequest request) {
    boolean watch = "watch".equals(RequestInfo.ofAnyServer(request).verb());
    HttpRequest forwarded = forwarded(request, watch);
    try {
      return watch ? watch(forwarded) : complete(forwarded);
    } catch (ExecutionException e) {
      return unreachable(e.getCause() == null ? e : e.getCause());
    } catch (TimeoutException e) {
      return failure(504, "Timeout", "did not answer within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unreachable(e);
    }
  }

  private HttpRequest forwarded(ApiRequest request, boolean watch) {
    HttpRequest.Builder builder =
        http.newHttpRequestBuilder().uri(upstream + pathAndQuery(request));
    request
        .headers()
        .forEach(
            (name, value) -> {
              if (!NOT_FORWARDED.contains(name)) {
                builder.setHeader(name, value);
              }
            });
    byte[] body = request.body();
    String method = request.method().toUpperCase(Locale.ROOT);
    if (!method.equals("GET") || body.length > 0) {
      String contentType = request.header("content-type");
      builder.method(
          method,
          contentType == null ? "application/json" : contentType,
          new ByteArrayInputStream(body),
          (long) body.length);
    }
    if (watch) {
      builder.setHeader("Accept", "application/json").forStreaming();
    } else {
      builder.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
    return builder.build();
  }

  private static String pathAndQuery(ApiRequest request) {
    if (request.query().isEmpty()) {
      return request.path();
    }
    return request.path()
        + "?"
        + request.query().entrySet().stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private ApiResult complete(HttpRequest forwarded)
      throws ExecutionException, TimeoutException, InterruptedException {
    HttpResponse<byte[]> response =
        http.sendAsync(forwarded, byte[].class).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return answer(response, response.body());
  }

  private ApiResult watch(HttpRequest forwarded)
      throws ExecutionException, TimeoutException, InterruptedException {
    WatchLines lines = new WatchLines();
    CompletableFuture<HttpResponse<AsyncBody>> pending = http.consumeBytes(forwarded, lines);
    HttpResponse<AsyncBody> response;
    try {
      response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | InterruptedException e) {
      pending.thenAccept(late -> late.body().cancel());
      throw e;
    }
    AsyncBody body = response.body();
    if (response.code() != 200) {
      // A refusal (410, 403, ...) is a complete answer: read it whole.
      CompletableFuture<byte[]> whole = lines.collect(body);
      return answer(response, whole.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    }
    return new WatchResult(
        sink -> {
          lines.stream(sink, body);
          return body::cancel;
        });
  }

  private static ApiResponse answer(HttpHeaders response, byte[] body) {
    int code = ((HttpResponse<?>) response).code();
    String contentType = response.header("Content-Type");
    Map<String, String> headers = new HashMap<>();
    response
        .headers()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(Locale.ROOT);
              if (!values.isEmpty() && !lower.startsWith(":") && !NOT_RETURNED.contains(lower)) {
                headers.put(name, values.get(0));
              }
            });
    return new ApiResponse(
        code,
        contentType == null ? "application/json" : contentType,
        body == null ? new byte[0] : body,
        headers);
  }

  private ApiResponse unreachable(Throwable cause) {
    return failure(503, "ServiceUnavailable", "could not be reached: " + cause);
  }

  private ApiResponse failure(int code, String reason, String what) {
    return ApiResponse.error(
        new StatusError(
            code, reason, "the server behind the proxy (" + upstream + ") " + what, null));
  }
}
