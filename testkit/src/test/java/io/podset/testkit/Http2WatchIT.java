package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Watches multiplexed on one HTTP/2 connection (the JDK client's default) while writes stream
 * events into them: opening a new stream must never wait on a writer that waits on the connection.
 */
class Http2WatchIT {

  private static final int WRITERS = 4;
  private static final int WRITES_PER_WRITER = 400;
  private static final int WATCHES = 60;

  @ParameterizedTest(name = "fault rules installed: {0}")
  @ValueSource(booleans = {false, true})
  void newWatchStreamsWhileEventsFlow_overOneHttp2Connection_everyRequestCompletes(
      boolean faultRules) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      if (faultRules) {
        // Any rule moves request handling off the event loop onto worker threads.
        server.faults().add(FaultRule.match().resource("secrets").inject(Fault.serverError(500)));
      }
      KubernetesClient client = server.client();
      URI watchUri = server.url().resolve("/api/v1/namespaces/default/configmaps?watch=true");
      HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      // The first request upgrades the connection to HTTP/2 (h2c); the watches share it.
      HttpResponse<String> first =
          http2.send(
              HttpRequest.newBuilder(server.url().resolve("/version")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);

      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
      List<HttpResponse<InputStream>> watches = new ArrayList<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          writers.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < WRITES_PER_WRITER; i++) {
                      client
                          .configMaps()
                          .resource(
                              new ConfigMapBuilder()
                                  .withNewMetadata()
                                  .withName("cm-" + writer + "-" + i)
                                  .endMetadata()
                                  .build())
                          .create();
                    }
                    return null;
                  }));
        }
        Future<?> opener =
            pool.submit(
                () -> {
                  for (int i = 0; i < WATCHES && writing.get(); i++) {
                    HttpResponse<InputStream> watch =
                        http2.send(
                            HttpRequest.newBuilder(watchUri).build(),
                            HttpResponse.BodyHandlers.ofInputStream());
                    synchronized (watches) {
                      watches.add(watch);
                    }
                    // Drain it so flow control never stalls the shared connection.
                    CompletableFuture.runAsync(() -> drain(watch.body()));
                  }
                  return null;
                });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (Future<?> writer : writers) {
          awaitBy(writer, deadline, "a writer's creates");
        }
        writing.set(false);
        awaitBy(opener, deadline, "opening the watches");
        synchronized (watches) {
          assertThat(watches).isNotEmpty().allMatch(w -> w.statusCode() == 200);
          assertThat(watches).allMatch(w -> w.version() == HttpClient.Version.HTTP_2);
        }
        // The server still answers on the shared connection.
        HttpResponse<String> after =
            http2.send(
                HttpRequest.newBuilder(server.url().resolve("/version")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode()).isEqualTo(200);
      } finally {
        writing.set(false);
        synchronized (watches) {
          for (HttpResponse<InputStream> watch : watches) {
            watch.body().close();
          }
        }
        pool.shutdownNow();
      }
    }
  }

  private static void awaitBy(Future<?> task, long deadlineNanos, String what) throws Exception {
    try {
      task.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(what + " did not complete within 60 s: the server is stuck", e);
    }
  }

  private static void drain(InputStream body) {
    byte[] buffer = new byte[8192];
    try (body) {
      while (body.read(buffer) >= 0) {
        // Discard: the test only needs the stream consumed.
      }
    } catch (java.io.IOException e) {
      // Closed by the test.
    }
  }
}
