package io.podset.runtime.informer.transport;

import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.runtime.client.ApiFailures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Watches a collection over HTTP streaming ({@code ?watch=true}: a chunked body of
 * newline-delimited JSON events, or for a built-in kind length-prefixed protobuf events when the
 * server offers them, as client-go's informers watch) through fabric8's HTTP client, decoding each
 * event and handing it to the listener on the thread that delivered its bytes: no executor hop
 * between the socket and the reflector.
 *
 * <p>Semantics, as the API server defines them:
 *
 * <ul>
 *   <li>The request carries the resourceVersion to resume from (none for "now"), {@code
 *       allowWatchBookmarks}, {@code timeoutSeconds}, the selectors and, for a streaming list,
 *       {@code sendInitialEvents=true&resourceVersionMatch=NotOlderThan}.
 *   <li>A refused watch (any status but 200) fails {@link #watch} with a {@link
 *       KubernetesClientException} carrying the code and the server's Status (410 for a version
 *       older than the history).
 *   <li>An {@code ERROR} event (how a running watch reports 410 Expired and other failures) ends
 *       the watch with that Status as a {@link KubernetesClientException}.
 *   <li>The server closing the stream cleanly (at its timeout, or for its own reasons) is a normal
 *       end ({@code onClose(null)}); the reflector decides whether it ended suspiciously early.
 *   <li>A broken connection, a body cut in the middle of an event or an undecodable event ends the
 *       watch with a {@link KubernetesClientException} of code 0 (re-watch from the last version).
 * </ul>
 *
 * <p>Backpressure: the next chunk is asked for only once the events of the previous one were handed
 * over, so a slow consumer slows the reading of the socket (and TCP slows the server) rather than
 * growing a buffer. No client-side timeout applies to the stream: the server ends it at {@code
 * timeoutSeconds}, and the reflector's guard ends it if the server does not. Establishing the watch
 * waits at most {@code openTimeoutMillis} for the response headers.
 *
 * <p>Thread-safe; each {@link #watch} call is an independent stream.
 */
final class HttpWatch<T extends HasMetadata> {

  private final HttpClient http;
  private final String collectionUrl;
  private final String apiVersion;
  private final Selection selection;
  private final long openTimeoutMillis;
  private final KubernetesSerialization serialization;
  private final TypeReference<WatchLine<T>> lineType;
  private final TypeReference<WatchLine<Status>> statusLineType;
  // Null when objects are decoded whole.
  private final @Nullable SkippingReader skipping;
  // Null when the watch is asked for in JSON only.
  private final @Nullable ProtobufWatchEvents<T> protobuf;

  /**
   * One line of a watch body.
   *
   * @param type ADDED, MODIFIED, DELETED, BOOKMARK or ERROR
   * @param object the object (a Status for ERROR)
   */
  record WatchLine<O>(String type, O object) {}

  /**
   * @param http an HTTP client that does not retry by itself (its interceptors authenticate)
   * @param collectionUrl the URL of the collection, without a query
   * @param apiVersion set on decoded objects that come without one
   * @param selection its label and field selectors (the namespace is in the URL)
   * @param openTimeoutMillis how long to wait for the response headers; zero or less for no limit
   * @param serialization the client's, to decode events with
   * @param type the watched type
   * @param skip what of each object the decoder may skip (see {@link Transports#forType}), or null
   *     to decode objects whole
   * @param protobuf whether to ask for the protobuf encoding (JSON is taken too), for a built-in
   *     kind; a custom resource's watch is JSON whatever this says
   */
  HttpWatch(
      HttpClient http,
      String collectionUrl,
      String apiVersion,
      Selection selection,
      long openTimeoutMillis,
      KubernetesSerialization serialization,
      Class<T> type,
      @Nullable TokenFilter skip,
      boolean protobuf) {
    this.http = Objects.requireNonNull(http, "http");
    this.collectionUrl = Objects.requireNonNull(collectionUrl, "collectionUrl");
    this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
    this.selection = Objects.requireNonNull(selection, "selection");
    this.openTimeoutMillis = openTimeoutMillis;
    this.serialization = Objects.requireNonNull(serialization, "serialization");
    this.lineType = typeReference(Objects.requireNonNull(type, "type"));
    this.statusLineType = typeReference(Status.class);
    this.skipping =
        skip == null
            ? null
            : SkippingReader.of(serialization, lineType.getType(), SkippingReader.watchLine(skip));
    this.protobuf = protobuf ? ProtobufWatchEvents.of(serialization, type, skip) : null;
  }

  private <O> TypeReference<WatchLine<O>> typeReference(Class<O> objectType) {
    Type lineOf = serialization.constructParametricType(WatchLine.class, objectType);
    return new TypeReference<>() {
      @Override
      public Type getType() {
        return lineOf;
      }
    };
  }

  /**
   * Opens a watch; returns once the server accepted it (status 200).
   *
   * @throws KubernetesClientException if the server refused it (with its code and Status), or the
   *     connection failed or timed out (code 0)
   */
  WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(listener, "listener");
    String url = url(request);
    HttpWatchStream<T> stream = new HttpWatchStream<>(listener, url);
    HttpRequest httpRequest =
        http.newHttpRequestBuilder()
            .uri(URI.create(url))
            .header(
                "Accept",
                protobuf == null
                    ? "application/json"
                    : ProtobufWatchEvents.MEDIA_TYPE + ", application/json")
            .forStreaming()
            .build();
    CompletableFuture<HttpResponse<AsyncBody>> pending = http.consumeBytes(httpRequest, stream);
    HttpResponse<AsyncBody> response = await(pending, url);
    if (response.code() != 200) {
      throw refusal(url, response, stream);
    }
    ProtobufWatchEvents<T> events = protobuf;
    if (events != null && ProtobufWatchEvents.isProtobuf(response.header("Content-Type"))) {
      stream.start(response.body(), new ProtobufFrames(), events::decode);
    } else {
      stream.start(response.body(), new JsonLines(), this::decode);
    }
    return stream::close;
  }

  /** The watch URL: watch, version, bookmarks, timeout, selectors, streaming list. */
  String url(WatchRequest request) {
    StringBuilder sb = new StringBuilder(collectionUrl).append("?watch=true");
    if (!request.resourceVersion().isEmpty()) {
      sb.append("&resourceVersion=").append(Selection.encode(request.resourceVersion()));
    }
    if (request.allowBookmarks()) {
      sb.append("&allowWatchBookmarks=true");
    }
    sb.append("&timeoutSeconds=").append(Math.max(1, request.timeout().toSeconds()));
    selection.appendSelectors(sb);
    if (request.sendInitialEvents()) {
      sb.append("&sendInitialEvents=true&resourceVersionMatch=NotOlderThan");
    }
    return sb.toString();
  }

  /**
   * Decodes one line into an event, or throws what ends the watch: the Status of an ERROR event, or
   * a code-0 exception for a line that is not a watch event.
   */
  WatchEvent<T> decode(byte[] bytes, int offset, int length, String url) {
    WatchLine<T> line = line(bytes, offset, length, skipping);
    if (line != null && skipping != null && "BOOKMARK".equals(line.type())) {
      // The bookmark's annotations (the end of the initial events) may be what the filter skips.
      line = line(bytes, offset, length, null);
    }
    if (line == null || "ERROR".equals(line.type())) {
      throw errorEvent(bytes, offset, length, url);
    }
    T object = line.object();
    if (object == null || line.type() == null) {
      throw undecodable(bytes, offset, length, url, null);
    }
    if (object.getApiVersion() == null || object.getApiVersion().isEmpty()) {
      object.setApiVersion(apiVersion);
    }
    return switch (line.type()) {
      case "ADDED" -> new WatchEvent.Added<>(object);
      case "MODIFIED" -> new WatchEvent.Modified<>(object);
      case "DELETED" -> new WatchEvent.Deleted<>(object);
      case "BOOKMARK" -> bookmark(object, bytes, offset, length, url);
      default -> throw undecodable(bytes, offset, length, url, null);
    };
  }

  /** The line decoded (through {@code skipping} unless null), or null if it does not decode. */
  private @Nullable WatchLine<T> line(
      byte[] bytes, int offset, int length, @Nullable SkippingReader skipping) {
    try {
      return skipping == null
          ? serialization.unmarshal(new ByteArrayInputStream(bytes, offset, length), lineType)
          : skipping.read(bytes, offset, length);
    } catch (IOException | RuntimeException e) {
      return null; // perhaps an ERROR whose Status does not decode as T: tried by the caller
    }
  }

  private WatchEvent<T> bookmark(T object, byte[] bytes, int offset, int length, String url) {
    ObjectMeta meta = object.getMetadata();
    if (meta == null || meta.getResourceVersion() == null) {
      throw undecodable(bytes, offset, length, url, null);
    }
    return new WatchEvent.Bookmark<>(meta.getResourceVersion(), meta.getAnnotations());
  }

  private KubernetesClientException errorEvent(byte[] bytes, int offset, int length, String url) {
    WatchLine<Status> line;
    try {
      line =
          serialization.unmarshal(new ByteArrayInputStream(bytes, offset, length), statusLineType);
    } catch (RuntimeException e) {
      return undecodable(bytes, offset, length, url, e);
    }
    if (line == null || !"ERROR".equals(line.type()) || line.object() == null) {
      return undecodable(bytes, offset, length, url, null);
    }
    Status status = line.object();
    int code = status.getCode() == null ? 0 : status.getCode();
    return new KubernetesClientException(
        "watch of " + url + " ended by an ERROR event: " + status.getMessage(), code, status);
  }

  private static KubernetesClientException undecodable(
      byte[] bytes, int offset, int length, String url, @Nullable Throwable cause) {
    String text = new String(bytes, offset, Math.min(length, 200), StandardCharsets.UTF_8);
    return new KubernetesClientException("watch of " + url + ": not a watch event: " + text, cause);
  }

  private HttpResponse<AsyncBody> await(
      CompletableFuture<HttpResponse<AsyncBody>> pending, String url) {
    try {
      return openTimeoutMillis > 0
          ? pending.get(openTimeoutMillis, TimeUnit.MILLISECONDS)
          : pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancelWhenDone(pending);
      throw new KubernetesClientException("watch of " + url + " interrupted", e);
    } catch (TimeoutException e) {
      cancelWhenDone(pending);
      throw new KubernetesClientException(
          "watch of " + url + " not answered within " + openTimeoutMillis + " ms", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof KubernetesClientException k) {
        throw k;
      }
      throw new KubernetesClientException(
          "watch of " + url + " failed: " + cause.getMessage(), cause);
    }
  }

  private static void cancelWhenDone(CompletableFuture<HttpResponse<AsyncBody>> pending) {
    pending.whenComplete(
        (response, error) -> {
          if (response != null) {
            response.body().cancel();
          }
        });
  }

  /** Reads (a bounded part of) a refused watch's body and turns it into the failure. */
  private KubernetesClientException refusal(
      String url, HttpResponse<AsyncBody> response, HttpWatchStream<T> stream) {
    AsyncBody body = response.body();
    byte[] text = new byte[0];
    try {
      stream.collectRefusal();
      body.consume();
      if (openTimeoutMillis > 0) {
        body.done().get(openTimeoutMillis, TimeUnit.MILLISECONDS);
      } else {
        body.done().get();
      }
      text = stream.refusalBody();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      // described from the code alone
    } finally {
      if (!body.done().isDone()) {
        body.cancel(); // else its connection is back in the pool: left alone
      }
    }
    return ApiFailures.refused(serialization, "GET", url, response.code(), text);
  }
}
