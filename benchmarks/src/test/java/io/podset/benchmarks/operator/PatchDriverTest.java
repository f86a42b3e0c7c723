package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PatchDriverTest {

  private static final String PATH = "/api/v1/namespaces/default/configmaps/";

  @Test
  void patch_appliesTheMergePatch_andReportsTheStatus() throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        PatchDriver driver = new PatchDriver(server.url(), 4)) {
      createConfigMap(server, "cm-0");

      assertThat(patch(driver, PATH + "cm-0", "{\"data\":{\"key\":\"patched\"}}")).isEqualTo(200);
      assertThat(patch(driver, PATH + "missing", "{\"data\":{\"key\":\"x\"}}")).isEqualTo(404);

      assertThat(
              server.client().configMaps().inNamespace("default").withName("cm-0").get().getData())
          .containsEntry("key", "patched");
    }
  }

  /**
   * The point of the driver: it shares the server's only CPU, so with hundreds of patches in flight
   * it must not hand their completions to new threads as the JDK's HTTP client did (4061 threads
   * started for these 4000 patches).
   */
  @Test
  void patch_manyInFlight_startNoThreadsPerRequest() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (FakeApiServer server = FakeApiServer.start();
        PatchDriver driver = new PatchDriver(server.url(), 64)) {
      createConfigMap(server, "cm-0");
      // The first patch starts the driver's event loop; the next round opens all 64 connections,
      // which starts the server's other event loops.
      assertThat(patch(driver, PATH + "cm-0", "{\"data\":{\"key\":\"0\"}}")).isEqualTo(200);
      sendAll(driver, 256, 256);
      long started = threads.getTotalStartedThreadCount();

      AtomicInteger failed = sendAll(driver, 4000, 256);

      assertThat(failed).hasValue(0);
      // Room for threads the JVM may start meanwhile (compiler threads, a pool's spare thread).
      assertThat(threads.getTotalStartedThreadCount() - started).isLessThanOrEqualTo(16);
    }
  }

  @Test
  void watch_holdsAStreamingAndAWebSocketWatch_untilClosed() throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        PatchDriver driver = new PatchDriver(server.url(), 4)) {
      AutoCloseable watches = driver.watch("/api/v1/namespaces/default/configmaps?watch=true");
      Eventually.await("two open watches", () -> server.openWatches() == 2);
      createConfigMap(server, "cm-0");
      assertThat(patch(driver, PATH + "cm-0", "{\"data\":{\"key\":\"1\"}}")).isEqualTo(200);

      watches.close();

      Eventually.await("no open watch", () -> server.openWatches() == 0);
    }
  }

  /** Sends {@code count} patches, at most {@code inFlight} at once; returns how many failed. */
  private static AtomicInteger sendAll(PatchDriver driver, int count, int inFlight)
      throws InterruptedException {
    Semaphore permits = new Semaphore(inFlight);
    AtomicInteger failed = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(count);
    for (int i = 0; i < count; i++) {
      permits.acquire();
      driver.patch(
          PATH + "cm-0",
          "{\"data\":{\"key\":\"" + i + "\"}}",
          (status, error) -> {
            if (status != 200) {
              failed.incrementAndGet();
            }
            permits.release();
            done.countDown();
          });
    }
    assertThat(done.await(60, TimeUnit.SECONDS)).as("all patches completed").isTrue();
    return failed;
  }

  private static int patch(PatchDriver driver, String path, String body) throws Exception {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    driver.patch(
        path,
        body,
        (code, error) -> {
          if (error != null) {
            status.completeExceptionally(error);
          } else {
            status.complete(code);
          }
        });
    return status.get(30, TimeUnit.SECONDS);
  }

  private static void createConfigMap(FakeApiServer server, String name) {
    server
        .client()
        .configMaps()
        .inNamespace("default")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("key", "value")
                .build())
        .create();
  }
}
