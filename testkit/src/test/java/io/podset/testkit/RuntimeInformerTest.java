package io.podset.testkit;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.ListerWatchers;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformers;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The runtime's own informers against the fake: relist past the history, bookmarks consumed. */
class RuntimeInformerTest {

  private static final InformerOptions OPTIONS =
      InformerOptions.defaults().withNamespace("default");

  private static SharedInformer<ConfigMap> informer(KubernetesClient client) {
    return SharedInformers.create(
        ConfigMap.class,
        ListerWatchers.forResource(client, ConfigMap.class, OPTIONS),
        OPTIONS,
        Clock.system());
  }

  private static void configMap(KubernetesClient client, String name) {
    client
        .configMaps()
        .inNamespace("default")
        .resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private static void secrets(KubernetesClient client, int count) {
    for (int i = 0; i < count; i++) {
      client
          .secrets()
          .inNamespace("default")
          .resource(
              new SecretBuilder().withNewMetadata().withGenerateName("s-").endMetadata().build())
          .create();
    }
  }

  @Test
  void resumePastHistoryWindow_relistsAndKeepsFollowing() {
    try (FakeApiServer server =
            FakeApiServer.builder().historyWindow(5).bookmarkInterval(Duration.ofHours(1)).start();
        KubernetesClient client = server.newClient()) {
      configMap(client, "before");
      SharedInformer<ConfigMap> informer = informer(client);
      try {
        informer.start();
        assertThat(informer.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        await("the watch", () -> informer.health().watching() && server.openWatches() == 1);
        // Other resources move the revision on; the informer's version falls out of the history.
        secrets(client, 10);
        server.compactHistory();
        server.closeWatches();
        await("a relist", () -> informer.health().relistCount() >= 1);
        configMap(client, "after");
        await("the new object", () -> informer.indexer().getByKey("default/after").isPresent());
        assertThat(informer.indexer().getByKey("default/before")).isPresent();
        assertThat(informer.health().healthy()).isTrue();
      } finally {
        informer.close();
      }
    }
  }

  @Test
  void bookmarks_advanceTheObservedVersionWithoutChanges() {
    try (FakeApiServer server =
            FakeApiServer.builder().bookmarkInterval(Duration.ofMillis(200)).start();
        KubernetesClient client = server.newClient()) {
      SharedInformer<ConfigMap> informer = informer(client);
      try {
        informer.start();
        assertThat(informer.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        secrets(client, 3);
        long target = server.resourceVersion();
        await(
            "a bookmark at " + target,
            () -> {
              String observed = informer.lastObservedResourceVersion();
              return observed != null && Long.parseLong(observed) >= target;
            });
        assertThat(informer.indexer().list()).isEmpty();
      } finally {
        informer.close();
      }
    }
  }
}
