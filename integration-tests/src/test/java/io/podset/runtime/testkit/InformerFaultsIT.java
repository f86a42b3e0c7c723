package io.podset.runtime.testkit;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.ListerWatchers;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformers;
import io.podset.runtime.time.Clock;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runtime's informer under injected faults: a 410 on watch makes it relist. */
class InformerFaultsIT {

  private static final InformerOptions OPTIONS =
      InformerOptions.defaults().withNamespace("default");

  /** A list, or a streaming list (a watch that starts with the current state). */
  private static boolean isRelist(RequestRecord r) {
    return r.verb().equals("list")
        || (r.verb().equals("watch") && r.query().contains("sendInitialEvents=true"));
  }

  @Test
  void watchAnswered410_informerRelists_andKeepsFollowing() {
    try (FakeApiServer server = FakeApiServer.start()) {
      server
          .client()
          .configMaps()
          .resource(
              new ConfigMapBuilder().withNewMetadata().withName("before").endMetadata().build())
          .create();
      SharedInformer<ConfigMap> informer =
          SharedInformers.create(
              ConfigMap.class,
              ListerWatchers.forResource(server.newClient(), ConfigMap.class, OPTIONS),
              OPTIONS,
              Clock.system());
      try {
        informer.start();
        assertThat(informer.waitForCacheSync(Duration.ofSeconds(60))).isTrue();
        await("the watch", () -> informer.health().watching());
        // An event on the stream first: fabric8 takes a watch that ends cleanly without any
        // message as a 410 of its own, which would hide the injected one.
        server
            .client()
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("seen").endMetadata().build())
            .create();
        await("the event", () -> informer.indexer().getByKey("default/seen").isPresent());

        FaultInjector.Handle gone =
            server
                .faults()
                .add(
                    FaultRule.match()
                        .verbs("watch")
                        .resource("configmaps")
                        .nth(1)
                        .inject(Fault.gone()));
        // The connection drops; the informer watches again from its version and gets 410.
        assertThat(server.faults().dropWatches("configmaps")).isEqualTo(1);
        await("a relist", () -> informer.health().relistCount() >= 1);
        assertThat(gone.injected()).isEqualTo(1);

        List<RequestRecord> configMapRequests =
            server.journal().records(RequestMatcher.any().resource("configmaps"));
        RequestRecord expired =
            configMapRequests.stream().filter(r -> r.status() == 410).findFirst().orElseThrow();
        assertThat(expired.verb()).isEqualTo("watch");
        assertThat(expired.fault()).contains("410");
        assertThat(configMapRequests)
            .filteredOn(r -> r.sequence() > expired.sequence())
            .as("a relist after the 410: %s", configMapRequests)
            .anyMatch(InformerFaultsIT::isRelist);

        server
            .client()
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("after").endMetadata().build())
            .create();
        await("the new object", () -> informer.indexer().getByKey("default/after").isPresent());
        assertThat(informer.indexer().getByKey("default/before")).isPresent();
        assertThat(informer.health().healthy()).isTrue();
      } finally {
        informer.close();
      }
    }
  }
}
