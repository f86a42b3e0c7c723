package io.podset.operator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The reconciler's client for tests: it records every write and read it sends ({@code METHOD
 * path}), so a test can tell the reconciler's writes from its own set-up. It does not retry inside
 * fabric8 (the controller owns retries), so a refused request reaches the reconciler once per
 * attempt. Faults are injected by the fake API server ({@link io.podset.testkit.FaultInjector}).
 */
final class RecordingClient implements AutoCloseable {

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private final List<String> writes = new CopyOnWriteArrayList<>();
  private final List<String> reads = new CopyOnWriteArrayList<>();
  private final KubernetesClient client;
  // Runs as each request is about to be sent, on the sending thread, with its line.
  private volatile Consumer<String> beforeSend = line -> {};

  RecordingClient(Config base) {
    Config config = new ConfigBuilder(base).withRequestRetryBackoffLimit(0).build();
    Interceptor interceptor =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String line = request.method() + " " + request.uri().getPath();
            (READS.contains(request.method()) ? reads : writes).add(line);
            beforeSend.accept(line);
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

  /** The writes sent to the API server (refused ones included), in order. */
  List<String> writes() {
    return List.copyOf(writes);
  }

  /**
   * Runs {@code hook} as each request is about to be sent ({@code METHOD path}), on the sending
   * thread: a test changes the server between two requests of one reconcile.
   */
  void beforeSend(Consumer<String> hook) {
    beforeSend = Objects.requireNonNull(hook, "hook");
  }

  void clear() {
    writes.clear();
    reads.clear();
  }

  @Override
  public void close() {
    client.close();
  }
}
