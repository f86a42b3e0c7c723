package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.podset.testkit.FakeApiServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ControlTest {

  @Test
  void awaitConfigMap_returnsItOnceCreated_andNamesItOnTimeout() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      CompletableFuture<ConfigMap> seen =
          CompletableFuture.supplyAsync(
              () ->
                  Control.awaitConfigMap(
                      server.client(), "bench-x", Duration.ofSeconds(30), "never created"));
      server
          .client()
          .configMaps()
          .inNamespace("default")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("bench-x")
                  .endMetadata()
                  .addToData("contender", "ours")
                  .build())
          .create();
      assertThat(seen.get(30, TimeUnit.SECONDS).getData()).containsEntry("contender", "ours");

      assertThatThrownBy(
              () ->
                  Control.awaitConfigMap(
                      server.client(), "bench-missing", Duration.ofMillis(300), "nobody came"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("nobody came")
          .hasMessageContaining("bench-missing");
    }
  }
}
