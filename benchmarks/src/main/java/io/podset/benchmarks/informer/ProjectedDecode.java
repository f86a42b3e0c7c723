package io.podset.benchmarks.informer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.podset.benchmarks.server.Pods;
import io.podset.operator.PodSetController;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.ListerWatchers;
import io.podset.runtime.informer.ProtobufEncoding;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.informer.transport.WatchEvent;
import io.podset.runtime.informer.transport.WatchListener;
import io.podset.runtime.informer.transport.WatchRequest;
import io.podset.runtime.informer.transport.WatchTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * What decoding and projecting one pod costs the operator's pod informer ({@code operator}: its
 * projection as the transform, watching in JSON; {@code protobuf}: the same, watching in
 * kube-apiserver's protobuf, as it does a real API server) and the same projection hidden from the
 * transport ({@code hidden}: a transform that is not a projection, so pods decode whole, JSON):
 * bytes allocated and CPU time per pod, on the thread that decodes, for a list page (always JSON)
 * and for watch events over the HTTP stream, served from memory by a loopback server in this JVM.
 * Allocated bytes are a count that holds on any machine; CPU time only on a quiet one.
 *
 * <pre>{@code
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) \
 *     io.podset.benchmarks.informer.ProjectedDecode [pods] [rounds]
 * }</pre>
 */
public final class ProjectedDecode {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

  private final byte[] list;
  private final byte[] watch;
  private final byte[] protobufWatch;
  private final int pods;

  private ProjectedDecode(int pods) throws IOException {
    this.pods = pods;
    StringBuilder items = new StringBuilder();
    StringBuilder events = new StringBuilder();
    ByteArrayOutputStream frames = new ByteArrayOutputStream();
    for (int i = 0; i < pods; i++) {
      String pod = Pods.json(i, Pods.namespace(i, 10), "5f0c2b9e-3d41-4a8e-9c55-0a1b2c3d4e5f");
      // Compact, as an API server writes it, with a resourceVersion of its own.
      ObjectNode tree = (ObjectNode) JSON.readTree(pod);
      ((ObjectNode) tree.get("metadata")).put("resourceVersion", Integer.toString(i + 1));
      String line = JSON.writeValueAsString(tree);
      items.append(i == 0 ? "" : ",").append(line);
      events.append("{\"type\":\"MODIFIED\",\"object\":").append(line).append("}\n");
      frames.writeBytes(ProtobufEncoding.watchFrame("MODIFIED", tree));
    }
    this.protobufWatch = frames.toByteArray();
    this.list =
        ("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},"
                + "\"items\":["
                + items
                + "]}")
            .getBytes(StandardCharsets.UTF_8);
    this.watch = events.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    new ProjectedDecode(pods).run(rounds);
  }

  private void run(int rounds) throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withHttpClientFactory(new VertxHttpClientFactory())
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build()) {
      UnaryOperator<HasMetadata> projection = PodSetController.podTransform();
      Map<String, UnaryOperator<HasMetadata>> variants =
          Map.of("hidden", projection::apply, "operator", projection, "protobuf", projection);
      System.out.printf(
          "pods per round: %d, JSON per pod: %d B, protobuf per pod: %d B%n",
          pods, list.length / pods, protobufWatch.length / pods);
      for (String name :
          new String[] {"hidden", "operator", "protobuf", "hidden", "operator", "protobuf"}) {
        UnaryOperator<HasMetadata> transform = variants.get(name);
        WatchTransport transport =
            name.equals("protobuf") ? WatchTransport.HTTP_STREAM : WatchTransport.HTTP_STREAM_JSON;
        ListerWatcher<Pod> lw =
            ListerWatchers.forResource(
                client,
                Pod.class,
                InformerOptions.builder().transform(transform).watchTransport(transport).build());
        long[] listCost = new long[2];
        long[] watchCost = new long[2];
        for (int r = 0; r < rounds * 2; r++) {
          boolean measured = r >= rounds; // the first half warms up
          long[] l = listRound(lw, projection);
          long[] w = watchRound(lw, projection);
          if (measured) {
            listCost[0] += l[0];
            listCost[1] += l[1];
            watchCost[0] += w[0];
            watchCost[1] += w[1];
          }
        }
        long n = (long) pods * rounds;
        System.out.printf(
            "%-8s list:  %7d B allocated/pod  %6.1f us CPU/pod%n",
            name, listCost[0] / n, listCost[1] / 1e3 / n);
        System.out.printf(
            "%-8s watch: %7d B allocated/pod  %6.1f us CPU/pod%n",
            name, watchCost[0] / n, watchCost[1] / 1e3 / n);
      }
    } finally {
      server.stop(0);
    }
  }

  /** One list of all pods, each projected: bytes allocated and CPU ns on this thread. */
  private long[] listRound(ListerWatcher<Pod> lw, UnaryOperator<HasMetadata> projection) {
    long bytes = THREADS.getCurrentThreadAllocatedBytes();
    long cpu = THREADS.getCurrentThreadCpuTime();
    ListPage<Pod> page = lw.list(new ListRequest("0", pods + 1, null));
    for (Pod pod : page.items()) {
      projection.apply(pod);
    }
    return new long[] {
      THREADS.getCurrentThreadAllocatedBytes() - bytes, THREADS.getCurrentThreadCpuTime() - cpu
    };
  }

  /**
   * One watch delivering every pod, each projected where it is decoded: bytes allocated and CPU ns
   * on the delivering thread, from its first event to its last (so the HTTP client's own reading of
   * the first chunk is left out).
   */
  private long[] watchRound(ListerWatcher<Pod> lw, UnaryOperator<HasMetadata> projection)
      throws Exception {
    AtomicLong events = new AtomicLong();
    Map<Long, long[]> start = new ConcurrentHashMap<>();
    CompletableFuture<long[]> done = new CompletableFuture<>();
    lw.watch(
        new WatchRequest("1", Duration.ofMinutes(5), false, false),
        new WatchListener<>() {
          @Override
          public void onEvent(WatchEvent<Pod> event) {
            long id = Thread.currentThread().getId();
            start.computeIfAbsent(
                id,
                k ->
                    new long[] {
                      THREADS.getCurrentThreadAllocatedBytes(), THREADS.getCurrentThreadCpuTime()
                    });
            if (event instanceof WatchEvent.Modified<Pod> m) {
              projection.apply(m.object());
            }
            if (events.incrementAndGet() == pods) {
              long[] s = start.get(id);
              done.complete(
                  new long[] {
                    THREADS.getCurrentThreadAllocatedBytes() - s[0],
                    THREADS.getCurrentThreadCpuTime() - s[1]
                  });
            }
          }

          @Override
          public void onClose(RuntimeException cause) {
            if (cause != null) {
              done.completeExceptionally(cause);
            }
          }
        });
    long[] cost = done.get(5, TimeUnit.MINUTES);
    if (start.size() != 1) {
      throw new IllegalStateException("events delivered on " + start.size() + " threads");
    }
    return cost;
  }

  private void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    boolean isWatch = query != null && query.contains("watch=true");
    boolean protobuf = isWatch && accept != null && accept.startsWith(PROTOBUF);
    byte[] body = protobuf ? protobufWatch : isWatch ? watch : list;
    exchange
        .getResponseHeaders()
        .add("Content-Type", protobuf ? PROTOBUF + ";stream=watch" : "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
