package io.podset.runtime.informer.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The HTTP streaming watch driven chunk by chunk through a scripted HTTP client: framing, decoding,
 * ends, and reading only as fast as events are handed over.
 */
class HttpWatchTest {

  private static final String URL = "http://api/api/v1/namespaces/ns/pods";

  private static String pod(String name, String rv) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\"ns\",\"resourceVersion\":\""
        + rv
        + "\"},\"status\":{\"phase\":\"Running\"}}";
  }

  private static String event(String type, String object) {
    return "{\"type\":\"" + type + "\",\"object\":" + object + "}\n";
  }

  private static final String GONE =
      event(
          "ERROR",
          "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":410,"
              + "\"reason\":\"Expired\",\"message\":\"too old resource version: 5 (9)\"}");

  /** The body of one accepted watch: counts what the watch asks of it. */
  private static final class ScriptedBody implements AsyncBody {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    int consumeCalls;
    int cancelCalls;
    // Run once, at the next consume() (the body's bytes arrive once asked for).
    Runnable onNextConsume;

    @Override
    public void consume() {
      consumeCalls++;
      Runnable hook = onNextConsume;
      onNextConsume = null;
      if (hook != null) {
        hook.run();
      }
    }

    @Override
    public CompletableFuture<Void> done() {
      return done;
    }

    @Override
    public void cancel() {
      cancelCalls++;
      done.cancel(false);
    }
  }

  /** An HTTP client whose one response is scripted; the test pushes the body's chunks. */
  private static final class ScriptedHttp implements HttpClient {
    final ScriptedBody body = new ScriptedBody();
    final List<HttpRequest> requests = new ArrayList<>();
    int code = 200;
    AsyncBody.Consumer<List<ByteBuffer>> consumer;

    @Override
    public CompletableFuture<HttpResponse<AsyncBody>> consumeBytes(
        HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> bytes) {
      requests.add(request);
      consumer = bytes;
      return CompletableFuture.completedFuture(new Response(code, body, request));
    }

    /** Delivers one chunk per string, in one call. */
    void push(String... chunks) throws Exception {
      List<ByteBuffer> buffers = new ArrayList<>();
      for (String chunk : chunks) {
        buffers.add(ByteBuffer.wrap(chunk.getBytes(UTF_8)));
      }
      consumer.consume(buffers, body);
    }

    @Override
    public HttpRequest.Builder newHttpRequestBuilder() {
      return new StandardHttpRequest.Builder();
    }

    @Override
    public void close() {}

    @Override
    public DerivedClientBuilder newBuilder() {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, Class<T> type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public WebSocket.Builder newWebSocketBuilder() {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isClosed() {
      return false;
    }
  }

  private record Response(int code, AsyncBody body, HttpRequest request)
      implements HttpResponse<AsyncBody> {
    @Override
    public Optional<HttpResponse<?>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public List<String> headers(String key) {
      return List.of();
    }

    @Override
    public Map<String, List<String>> headers() {
      return Map.of();
    }
  }

  /** Records events and the end, and the thread each arrived on. */
  private static final class Listener implements WatchListener<Pod> {
    final List<WatchEvent<Pod>> events = new ArrayList<>();
    final List<Thread> threads = new ArrayList<>();
    RuntimeException cause;
    int closes;

    @Override
    public void onEvent(WatchEvent<Pod> event) {
      events.add(event);
      threads.add(Thread.currentThread());
    }

    @Override
    public void onClose(RuntimeException error) {
      closes++;
      cause = error;
    }
  }

  private final ScriptedHttp http = new ScriptedHttp();
  private final Listener listener = new Listener();

  private HttpWatch<Pod> watch(String labelSelector) {
    return new HttpWatch<>(
        http,
        URL,
        "v1",
        new Selection(null, labelSelector, null),
        0,
        new KubernetesSerialization(),
        Pod.class,
        null,
        false);
  }

  private WatchHandle open() {
    return watch(null).watch(new WatchRequest("5", Duration.ofMinutes(5), true, false), listener);
  }

  private static List<String> versions(List<WatchEvent<Pod>> events) {
    return events.stream().map(WatchEvent::resourceVersion).toList();
  }

  @Test
  void url_carriesVersionBookmarksTimeoutSelectorsAndStreamingList() {
    HttpWatch<Pod> watch = watch("app=web,tier!=db");

    String plain = watch.url(new WatchRequest("42", Duration.ofSeconds(330), true, false));
    String streaming = watch.url(new WatchRequest("", Duration.ofSeconds(330), true, true));

    assertThat(URLDecoder.decode(plain, UTF_8))
        .isEqualTo(
            URL
                + "?watch=true&resourceVersion=42&allowWatchBookmarks=true&timeoutSeconds=330"
                + "&labelSelector=app=web,tier!=db");
    assertThat(streaming)
        .doesNotContain("resourceVersion=&")
        .endsWith("&sendInitialEvents=true&resourceVersionMatch=NotOlderThan");
  }

  @Test
  void events_splitAcrossChunks_areDeliveredWhole_inOrder_onTheDeliveringThread() throws Exception {
    open();
    String added = event("ADDED", pod("a", "6"));
    String modified = event("MODIFIED", pod("a", "7"));

    http.push(added.substring(0, 10), added.substring(10, 40));
    assertThat(listener.events).isEmpty();
    http.push(added.substring(40) + modified.substring(0, 5));
    http.push(modified.substring(5) + "\n\r\n" + event("DELETED", pod("a", "8")));

    assertThat(listener.events)
        .extracting(e -> e.getClass().getSimpleName())
        .containsExactly("Added", "Modified", "Deleted");
    assertThat(versions(listener.events)).containsExactly("6", "7", "8");
    assertThat(listener.threads).containsOnly(Thread.currentThread());
    Pod pod = ((WatchEvent.Added<Pod>) listener.events.get(0)).object();
    assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
    assertThat(listener.closes).isZero();
  }

  @Test
  void request_isAStreamingGetForJson() {
    open();

    StandardHttpRequest request = (StandardHttpRequest) http.requests.get(0);
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.isForStreaming()).isTrue();
    assertThat(request.header("Accept")).isEqualTo("application/json");
    assertThat(request.getTimeout()).as("no client-side timeout on the stream").isNull();
  }

  @Test
  void nextChunk_isAskedForOnlyAfterTheEventsOfThePreviousOneWereHandedOver() throws Exception {
    List<Integer> consumeCallsSeenByListener = new ArrayList<>();
    WatchListener<Pod> slow =
        new WatchListener<>() {
          @Override
          public void onEvent(WatchEvent<Pod> event) {
            consumeCallsSeenByListener.add(http.body.consumeCalls);
          }

          @Override
          public void onClose(RuntimeException cause) {}
        };
    watch(null).watch(new WatchRequest("5", Duration.ofMinutes(5), true, false), slow);
    assertThat(http.body.consumeCalls).as("the first chunk is asked for on start").isEqualTo(1);

    http.push(event("ADDED", pod("a", "6")) + event("ADDED", pod("b", "7")));
    http.push(event("ADDED", pod("c", "8")));

    assertThat(consumeCallsSeenByListener).containsExactly(1, 1, 2);
    assertThat(http.body.consumeCalls).isEqualTo(3);
  }

  @Test
  void bookmark_carriesItsVersionAndAnnotations() throws Exception {
    open();

    http.push(
        event(
            "BOOKMARK",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"12\","
                + "\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}"));

    assertThat(listener.events)
        .containsExactly(
            new WatchEvent.Bookmark<>("12", Map.of("k8s.io/initial-events-end", "true")));
  }

  @Test
  void errorEvent_endsTheWatchWithItsStatus_andStopsReading() throws Exception {
    open();

    http.push(event("ADDED", pod("a", "6")) + GONE + event("ADDED", pod("b", "7")));

    assertThat(versions(listener.events)).containsExactly("6");
    assertThat(listener.closes).isEqualTo(1);
    assertThat(listener.cause)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(410));
    assertThat(listener.cause).hasMessageContaining("too old resource version");
    assertThat(http.body.cancelCalls).isEqualTo(1);
    assertThat(http.body.consumeCalls).as("no chunk asked for after the end").isEqualTo(1);
  }

  @Test
  void serverClosingTheStream_isANormalEnd() {
    open();

    http.body.done.complete(null);

    assertThat(listener.closes).isEqualTo(1);
    assertThat(listener.cause).isNull();
  }

  @Test
  void streamCutInTheMiddleOfAnEvent_isABrokenWatch() throws Exception {
    open();
    String modified = event("MODIFIED", pod("a", "7"));

    http.push(event("ADDED", pod("a", "6")) + modified.substring(0, modified.length() / 2));
    http.body.done.complete(null);

    assertThat(versions(listener.events)).containsExactly("6");
    assertThat(listener.cause)
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("middle of an event");
    assertNoApiAnswer(listener.cause);
  }

  @Test
  void brokenConnection_endsTheWatchAsRetriable() {
    open();

    http.body.done.completeExceptionally(new IOException("connection reset"));

    assertThat(listener.closes).isEqualTo(1);
    assertThat(listener.cause).hasMessageContaining("connection reset");
    assertNoApiAnswer(listener.cause);
  }

  @Test
  void undecodableLine_endsTheWatch() throws Exception {
    open();

    http.push("{\"type\":\"ADDED\",\"object\":{not json}\n");

    assertThat(listener.events).isEmpty();
    assertThat(listener.cause).hasMessageContaining("not a watch event");
    assertThat(http.body.cancelCalls).isEqualTo(1);
  }

  @Test
  void closedByTheClient_reportsNothingMore() throws Exception {
    WatchHandle handle = open();

    handle.close();
    http.push(event("ADDED", pod("a", "6")));
    http.body.done.completeExceptionally(new IOException("reset"));

    assertThat(listener.events).isEmpty();
    assertThat(listener.closes).isZero();
    assertThat(http.body.cancelCalls).isEqualTo(1);
  }

  @Test
  void refusedWatch_throwsTheStatusOfTheAnswer() {
    http.code = 410;
    http.body.onNextConsume =
        () -> {
          try {
            http.push(GONE.substring(GONE.indexOf("\"object\":") + 9, GONE.length() - 2));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          http.body.done.complete(null);
        };
    HttpWatch<Pod> watch = watch(null);

    assertThatThrownBy(
            () -> watch.watch(new WatchRequest("5", Duration.ofMinutes(5), true, false), listener))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(410);
              assertThat(e.getStatus().getReason()).isEqualTo("Expired");
              assertThat(e.getStatus().getMessage()).contains("too old resource version");
            });
    assertThat(listener.closes).isZero();
    assertThat(listener.events).isEmpty();
  }

  /**
   * A broken stream is reported as no API answer (no HTTP code), which the ListerWatcher contract
   * makes a connection failure: the reflector re-watches after a backoff instead of relisting.
   */
  private static void assertNoApiAnswer(Throwable cause) {
    assertThat(cause).isNotNull();
    assertThat(cause instanceof KubernetesClientException e ? e.getCode() : 0)
        .as("HTTP code of " + cause)
        .isLessThanOrEqualTo(0);
  }
}
