package io.podset.runtime.informer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.runtime.client.LocalHttpServer;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchListener;
import io.podset.runtime.informer.transport.WatchRequest;
import io.podset.runtime.informer.transport.WatchTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An informer with a {@link Projections} transform decodes lists and watch events skipping the
 * fields the projection drops; what the projection makes of them is exactly what it makes of the
 * whole decoded objects (the path of a transform that is not a projection), on pod JSON as an API
 * server sends it.
 */
class ProjectedDecodingTest {

  private static final long WAIT_SECONDS = 60;
  private static final ObjectMapper JSON = new ObjectMapper();

  // The shape of the operator's pod projection: map keys, list filters, fields inside lists.
  private static final UnaryOperator<HasMetadata> PROJECTION =
      Projections.keep(
          Pod.class,
          "metadata.creationTimestamp",
          "metadata.labels[app.kubernetes.io/name]",
          "metadata.labels[pod-template-hash]",
          "metadata.annotations[prometheus.io/port]",
          "metadata.ownerReferences",
          "spec.nodeName",
          "spec.containers.name",
          "spec.containers.image",
          "status.phase",
          "status.conditions[type=Ready].status",
          "status.conditions[type=Ready].lastTransitionTime",
          "status.containerStatuses.name",
          "status.containerStatuses.image",
          "status.containerStatuses.restartCount");

  // Today's path for comparison: not a projection to the transport, so objects decode whole.
  private static final UnaryOperator<HasMetadata> AFTER_WHOLE_DECODE = PROJECTION::apply;

  private static final String BOOKMARK =
      "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
          + "{\"resourceVersion\":\"50010\",\"annotations\":"
          + "{\"k8s.io/initial-events-end\":\"true\"}}}}";
  private static final String GONE =
      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"too old resource version: 5 (50000)\","
          + "\"reason\":\"Expired\",\"code\":410}}";

  private LocalHttpServer server;
  private List<String> pods;
  // Watches answer in protobuf when asked for it (else always JSON, as a server without it).
  private volatile boolean serveProtobuf;
  private final AtomicInteger protobufAnswers = new AtomicInteger();
  private final List<String> accepted = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    pods = pods();
    server = LocalHttpServer.start(2, this::handle);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void list_projected_skipsDroppedFields_andProjectsAsAWholeDecode() {
    ListPage<Pod> skipped = lister(PROJECTION).list(new ListRequest("0", 500, null));
    ListPage<Pod> whole = lister(AFTER_WHOLE_DECODE).list(new ListRequest("0", 500, null));

    assertThat(skipped.resourceVersion()).isEqualTo("50000").isEqualTo(whole.resourceVersion());
    assertThat(projected(skipped.items())).isEqualTo(projected(whole.items()));
    assertSkipped(skipped.items().get(0), whole.items().get(0));
    assertKeepsWhatTheRuntimeNeeds(projected(skipped.items()));
  }

  @Test
  void watch_projected_skipsDroppedFields_andProjectsAsAWholeDecode() throws Exception {
    Collected skipped = watch(PROJECTION, WatchTransport.HTTP_STREAM);
    Collected whole = watch(AFTER_WHOLE_DECODE, WatchTransport.HTTP_STREAM);

    assertThat(protobufAnswers).hasValue(0);
    assertSameProjections(skipped, whole);
  }

  @Test
  void watch_protobuf_skipsDroppedFields_andProjectsAsTheJsonWatchDecodedWhole() throws Exception {
    serveProtobuf = true;
    Collected protobuf = watch(PROJECTION, WatchTransport.HTTP_STREAM);
    Collected whole = watch(AFTER_WHOLE_DECODE, WatchTransport.HTTP_STREAM_JSON);

    assertThat(protobufAnswers).hasValue(1);
    assertThat(accepted)
        .containsExactly(
            "application/vnd.kubernetes.protobuf, application/json", "application/json");
    assertSameProjections(protobuf, whole);
  }

  @Test
  void watch_protobuf_decodedWhole_equalsTheJsonWatch() throws Exception {
    serveProtobuf = true;
    Collected protobuf = watch(InformerOptions.stripManagedFields(), WatchTransport.HTTP_STREAM);
    Collected json = watch(InformerOptions.stripManagedFields(), WatchTransport.HTTP_STREAM_JSON);

    assertThat(protobufAnswers).hasValue(1);
    assertThat(protobuf.events).isEqualTo(json.events);
    assertThat(protobuf.cause.getMessage()).isEqualTo(json.cause.getMessage());
  }

  private void assertSameProjections(Collected skipped, Collected whole) {
    assertThat(skipped.events).hasSize(pods.size() + 2).hasSameSizeAs(whole.events);
    List<Pod> skippedObjects = new ArrayList<>();
    List<Pod> wholeObjects = new ArrayList<>();
    for (int i = 0; i < skipped.events.size(); i++) {
      WatchEvent<Pod> a = skipped.events.get(i);
      WatchEvent<Pod> b = whole.events.get(i);
      assertThat(a.getClass()).isEqualTo(b.getClass());
      assertThat(a.resourceVersion()).isEqualTo(b.resourceVersion());
      if (a instanceof WatchEvent.Bookmark<Pod> bookmark) {
        assertThat(bookmark).isEqualTo(b);
        assertThat(bookmark.endsInitialEvents()).isTrue();
      } else {
        skippedObjects.add(object(a));
        wholeObjects.add(object(b));
      }
    }
    assertThat(skipped.events.get(pods.size())).isInstanceOf(WatchEvent.Deleted.class);
    assertThat(projected(skippedObjects)).isEqualTo(projected(wholeObjects));
    assertSkipped(skippedObjects.get(0), wholeObjects.get(0));
    assertKeepsWhatTheRuntimeNeeds(projected(skippedObjects));
    KubernetesClientException gone = (KubernetesClientException) skipped.cause;
    assertThat(gone.getCode()).isEqualTo(410);
    assertThat(gone.getMessage()).isEqualTo(whole.cause.getMessage()).contains("too old");
  }

  /** The skipping decoder really skipped: what the projection drops was never decoded. */
  private static void assertSkipped(Pod skipped, Pod whole) {
    assertThat(whole.getSpec().getVolumes()).isNotEmpty();
    assertThat(whole.getMetadata().getManagedFields()).isNotEmpty();
    assertThat(skipped.getSpec().getVolumes()).isEmpty();
    assertThat(skipped.getMetadata().getManagedFields()).isEmpty();
    assertThat(skipped.getMetadata().getAnnotations()).containsOnlyKeys("prometheus.io/port");
    assertThat(skipped.getStatus().getPodIP()).isNull();
  }

  private static void assertKeepsWhatTheRuntimeNeeds(List<Pod> projected) {
    Pod running = projected.get(0);
    assertThat(running.getMetadata().getResourceVersion()).isEqualTo("48213");
    assertThat(running.getMetadata().getUid()).isNotEmpty();
    assertThat(running.getMetadata().getOwnerReferences()).hasSize(1);
    assertThat(running.getMetadata().getLabels())
        .containsOnlyKeys("app.kubernetes.io/name", "pod-template-hash");
    assertThat(running.getStatus().getConditions())
        .singleElement()
        .extracting("type")
        .isEqualTo("Ready");
    Pod terminating = projected.get(1);
    assertThat(terminating.getMetadata().getDeletionTimestamp()).isEqualTo("2026-11-30T11:00:00Z");
    assertThat(terminating.getStatus()).isNotNull();
    assertThat(terminating.getStatus().getPhase()).isNull();
  }

  private static Pod object(WatchEvent<Pod> event) {
    if (event instanceof WatchEvent.Added<Pod> e) {
      return e.object();
    }
    if (event instanceof WatchEvent.Modified<Pod> e) {
      return e.object();
    }
    if (event instanceof WatchEvent.Deleted<Pod> e) {
      return e.object();
    }
    throw new AssertionError("no object: " + event);
  }

  private static List<Pod> projected(List<Pod> decoded) {
    return decoded.stream().map(p -> (Pod) PROJECTION.apply(p)).toList();
  }

  private ListerWatcher<Pod> lister(UnaryOperator<HasMetadata> transform) {
    return lister(transform, WatchTransport.HTTP_STREAM);
  }

  private ListerWatcher<Pod> lister(
      UnaryOperator<HasMetadata> transform, WatchTransport transport) {
    return ListerWatchers.forResource(
        server.client(),
        Pod.class,
        InformerOptions.builder()
            .namespace("shop")
            .transform(transform)
            .watchTransport(transport)
            .build());
  }

  /** What one watch delivered until the server's ERROR event ended it. */
  private record Collected(List<WatchEvent<Pod>> events, RuntimeException cause) {}

  private Collected watch(UnaryOperator<HasMetadata> transform, WatchTransport transport)
      throws Exception {
    List<WatchEvent<Pod>> events = new CopyOnWriteArrayList<>();
    CompletableFuture<RuntimeException> closed = new CompletableFuture<>();
    lister(transform, transport)
        .watch(
            new WatchRequest("50000", Duration.ofMinutes(5), true, false),
            new WatchListener<>() {
              @Override
              public void onEvent(WatchEvent<Pod> event) {
                events.add(event);
              }

              @Override
              public void onClose(RuntimeException cause) {
                closed.complete(cause);
              }
            });
    return new Collected(events, closed.get(WAIT_SECONDS, TimeUnit.SECONDS));
  }

  private void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String body;
    if (query != null && query.contains("watch=true")) {
      accepted.add(accept);
    }
    if (query != null
        && query.contains("watch=true")
        && serveProtobuf
        && accept.startsWith("application/vnd.kubernetes.protobuf")) {
      protobufAnswers.incrementAndGet();
      send(exchange, "application/vnd.kubernetes.protobuf;stream=watch", protobufWatch());
      return;
    }
    if (query != null && query.contains("watch=true")) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < pods.size(); i++) {
        lines.append(event(i == 0 ? "ADDED" : "MODIFIED", pods.get(i)));
      }
      lines.append(event("DELETED", pods.get(1))).append(BOOKMARK).append('\n');
      body = lines.append(GONE).append('\n').toString();
    } else {
      body =
          "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":"
              + "\"50000\"},\"items\":["
              + String.join(",", pods)
              + "]}";
    }
    send(exchange, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }

  /** The JSON watch's events in protobuf frames, as kube-apiserver writes them. */
  private byte[] protobufWatch() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < pods.size(); i++) {
      out.writeBytes(
          ProtobufEncoding.watchFrame(
              i == 0 ? "ADDED" : "MODIFIED", ProtobufEncoding.parse(pods.get(i))));
    }
    out.writeBytes(ProtobufEncoding.watchFrame("DELETED", ProtobufEncoding.parse(pods.get(1))));
    out.writeBytes(ProtobufEncoding.watchFrame("BOOKMARK", object(BOOKMARK)));
    out.writeBytes(ProtobufEncoding.watchFrame("ERROR", object(GONE)));
    return out.toByteArray();
  }

  private static ObjectNode object(String watchLine) {
    return (ObjectNode) ProtobufEncoding.parse(watchLine).get("object");
  }

  private static void send(HttpExchange exchange, String contentType, byte[] bytes)
      throws IOException {
    exchange.getResponseHeaders().add("Content-Type", contentType);
    // Not kept alive: the JDK server may close an idle connection just as the client reuses it
    // for the next request, which then fails with "Connection was closed" (seen in CI).
    exchange.getResponseHeaders().add("Connection", "close");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static String event(String type, String object) {
    return "{\"type\":\"" + type + "\",\"object\":" + object + "}\n";
  }

  /**
   * A running pod as a Deployment's (managed fields, volumes, tolerations and all); the same pod
   * terminating, with a status holding only dropped fields, labels without the kept ones and a
   * container without image; one with no spec nor status; one whose lists hold only what filters
   * drop.
   */
  private static List<String> pods() throws IOException {
    ObjectNode running;
    try (InputStream in = ProjectedDecodingTest.class.getResourceAsStream("pod.json")) {
      running = (ObjectNode) JSON.readTree(in);
    }
    ObjectNode terminating = running.deepCopy();
    ObjectNode meta = (ObjectNode) terminating.get("metadata");
    meta.put("name", "web-7d9f8c6b5-terminating").put("resourceVersion", "48300");
    meta.put("deletionTimestamp", "2026-11-30T11:00:00Z").put("deletionGracePeriodSeconds", 30);
    meta.putArray("finalizers").add("example.com/cleanup");
    meta.putObject("labels").put("tier", "frontend");
    ((ObjectNode) terminating.get("spec").get("containers").get(0)).remove("image");
    terminating.putObject("status").put("hostIP", "10.0.3.7").put("qosClass", "Burstable");

    ObjectNode bare = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
    bare.putObject("metadata")
        .put("name", "bare")
        .put("namespace", "shop")
        .put("uid", "uid-bare")
        .put("resourceVersion", "48400");

    ObjectNode emptied = bare.deepCopy();
    ((ObjectNode) emptied.get("metadata")).put("name", "emptied").put("resourceVersion", "48500");
    emptied.putObject("spec").putArray("containers").addObject().put("imagePullPolicy", "Always");
    ObjectNode status = emptied.putObject("status");
    ArrayNode conditions = status.putArray("conditions");
    conditions.addObject().put("type", "PodScheduled").put("status", "False");
    status.putArray("containerStatuses");
    return List.of(
        JSON.writeValueAsString(running),
        JSON.writeValueAsString(terminating),
        JSON.writeValueAsString(bare),
        JSON.writeValueAsString(emptied));
  }
}
