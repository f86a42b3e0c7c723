package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.manager.ManagerBuilder;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.reconcile.Result;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One reconcile, as a user of the library writes it: a controller that labels ConfigMaps. */
class LabelerTest {

  /** Labels every ConfigMap {@code seen=true}, reading the cache and writing through the client. */
  record Labeler(Manager manager) implements Reconciler {
    @Override
    public Result reconcile(Request request) {
      ConfigMap cached =
          manager
              .informers()
              .informerFor(ConfigMap.class)
              .indexer()
              .getByKey(request.toString())
              .orElse(null);
      if (cached == null || "true".equals(labels(cached).get("seen"))) {
        return Result.done();
      }
      manager
          .client()
          .configMaps()
          .inNamespace(request.namespace())
          .withName(request.name())
          .edit(
              c ->
                  new ConfigMapBuilder(c)
                      .editMetadata()
                      .addToLabels("seen", "true")
                      .endMetadata()
                      .build());
      return Result.done();
    }
  }

  @Test
  void reconcile_labelsTheConfigMap() {
    try (FakeApiServer server = FakeApiServer.start();
        Manager manager =
            Manager.builder(server.client())
                .healthPort(ManagerBuilder.ANY_FREE_PORT)
                .metricsPort(ManagerBuilder.ANY_FREE_PORT)
                .build()) {
      manager.addController(
          () ->
              manager
                  .controllerBuilder()
                  .named("labeler")
                  .forResource(ConfigMap.class)
                  .reconciler(new Labeler(manager))
                  .build());
      manager.start();
      KubernetesClient client = server.client();
      client
          .configMaps()
          .inNamespace("default")
          .resource(new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().build())
          .create();

      Eventually.await("the label", () -> "true".equals(seen(client)));
      assertEquals("true", seen(client));
    }
  }

  private static String seen(KubernetesClient client) {
    return labels(client.configMaps().inNamespace("default").withName("a").get()).get("seen");
  }

  private static Map<String, String> labels(ConfigMap configMap) {
    Map<String, String> labels = configMap.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
