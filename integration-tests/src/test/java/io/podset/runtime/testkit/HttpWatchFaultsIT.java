package io.podset.runtime.testkit;

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
import io.podset.runtime.informer.transport.WatchTransport;
import io.podset.runtime.time.Clock;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HTTP streaming watch ({@link WatchTransport#HTTP_STREAM}) of a real informer against the fake
 * API server's faults: dropped watches resume from their version, a history compacted under a
 * resuming watch (an ERROR event with 410) relists, a refused watch (503) is watched again without
 * a relist, and nothing is missed on the way.
 */
class HttpWatchFaultsIT {

  private static final InformerOptions OPTIONS =
      InformerOptions.defaults()
          .withNamespace("default")
          .withWatchTransport(WatchTransport.HTTP_STREAM);

  private static void create(KubernetesClient client, String name) {
    client
        .configMaps()
        .inNamespace("default")
        .resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private static List<RequestRecord> watches(FakeApiServer server) {
    return server.journal().records(RequestMatcher.any().resource("configmaps")).stream()
        .filter(r -> r.verb().equals("watch"))
        .toList();
  }

  private static SharedInformer<ConfigMap> started(KubernetesClient client) {
    SharedInformer<ConfigMap> informer =
        SharedInformers.create(
            ConfigMap.class,
            ListerWatchers.forResource(client, ConfigMap.class, OPTIONS),
            OPTIONS,
            Clock.system());
    informer.start();
    assertThat(informer.waitForCacheSync(Duration.ofSeconds(60))).isTrue();
    await("the watch", () -> informer.health().watching());
    return informer;
  }

  @Test
  void droppedWatches_resumeFromTheirVersion_withoutRelist_andMissNothing() {
    try (FakeApiServer server = FakeApiServer.start();
        KubernetesClient client = server.newClient()) {
      create(client, "before");
      SharedInformer<ConfigMap> informer = started(client);
      try {
        for (int i = 0; i < 3; i++) {
          String key = "default/a" + i;
          create(client, "a" + i);
          await(key, () -> informer.indexer().getByKey(key).isPresent());
          assertThat(server.faults().dropWatches("configmaps")).isEqualTo(1);
          create(client, "b" + i); // while the watch is down or being opened again
        }
        for (int i = 0; i < 3; i++) {
          String key = "default/b" + i;
          await(key, () -> informer.indexer().getByKey(key).isPresent());
        }
        assertThat(informer.indexer().list()).hasSize(7);
        assertThat(informer.health().relistCount()).isZero();
        List<RequestRecord> watches = watches(server);
        assertThat(watches.size()).isGreaterThanOrEqualTo(4);
        assertThat(watches)
            .allSatisfy(
                w ->
                    assertThat(w.query())
                        .contains("watch=true", "allowWatchBookmarks=true", "resourceVersion="));
      } finally {
        informer.close();
      }
    }
  }

  @Test
  void historyCompactedUnderAResumingWatch_endsItWith410_andRelists() {
    try (FakeApiServer server =
            FakeApiServer.builder().bookmarkInterval(Duration.ofHours(1)).start();
        KubernetesClient client = server.newClient()) {
      create(client, "before");
      SharedInformer<ConfigMap> informer = started(client);
      try {
        create(client, "seen");
        await("seen", () -> informer.indexer().getByKey("default/seen").isPresent());
        // Writes the informer does not watch move the server's version past the informer's.
        for (int i = 0; i < 3; i++) {
          client
              .secrets()
              .inNamespace("default")
              .resource(
                  new SecretBuilder().withNewMetadata().withName("s" + i).endMetadata().build())
              .create();
        }
        var compact =
            server
                .faults()
                .add(
                    FaultRule.match()
                        .verbs("watch")
                        .resource("configmaps")
                        .nth(1)
                        .inject(Fault.compactHistory()));
        assertThat(server.faults().dropWatches("configmaps")).isEqualTo(1);

        await("a relist", () -> informer.health().relistCount() >= 1);
        assertThat(compact.injected()).isEqualTo(1);
        create(client, "after");
        await("after", () -> informer.indexer().getByKey("default/after").isPresent());
        assertThat(informer.indexer().getByKey("default/before")).isPresent();
        assertThat(informer.health().healthy()).isTrue();
      } finally {
        informer.close();
      }
    }
  }

  @Test
  void refusedWatch503_isWatchedAgainWithoutRelist() {
    try (FakeApiServer server = FakeApiServer.start();
        KubernetesClient client = server.newClient()) {
      SharedInformer<ConfigMap> informer = started(client);
      try {
        create(client, "a");
        await("a", () -> informer.indexer().getByKey("default/a").isPresent());
        var refused =
            server
                .faults()
                .add(
                    FaultRule.match()
                        .verbs("watch")
                        .resource("configmaps")
                        .nth(1)
                        .inject(Fault.serverError(503)));
        server.faults().dropWatches("configmaps");
        await("the 503", () -> refused.injected() == 1);
        create(client, "b");

        await("b", () -> informer.indexer().getByKey("default/b").isPresent());
        assertThat(informer.health().relistCount()).isZero();
        assertThat(watches(server))
            .as("the 503 was answered once and not retried behind the reflector's back")
            .filteredOn(w -> w.status() == 503)
            .hasSize(1);
        await("watching again", () -> informer.health().healthy());
      } finally {
        informer.close();
      }
    }
  }
}
