package io.podset.runtime.testkit;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.event.Event;
import io.podset.runtime.expectations.Expectations;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.ListerWatchers;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformers;
import io.podset.runtime.time.Clock;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A stale cache reproduced with held-back pod events: a reconciler that trusts the cache
 * over-creates, one that uses {@link Expectations} does not.
 */
class StaleCacheIT {

  private static final String KEY = "default/web";
  private static final int REPLICAS = 3;
  private static final InformerOptions OPTIONS =
      InformerOptions.defaults().withNamespace("default").withLabelSelector("app=web");

  /** One pass of a "keep 3 pods labelled app=web" reconciler. */
  private interface Reconcile {
    void run();
  }

  private static long cachedPods(SharedInformer<Pod> pods) {
    return pods.indexer().list().size();
  }

  private static Pod createPod(KubernetesClient client) {
    return client
        .pods()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withGenerateName("web-")
                .withLabels(Map.of("app", "web"))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  /** Runs two reconciles while pod events are held back, releases them, runs a third. */
  private static int createsUnderStaleCache(boolean withExpectations) {
    try (FakeApiServer server = FakeApiServer.start()) {
      KubernetesClient client = server.client();
      SharedInformer<Pod> pods =
          SharedInformers.create(
              Pod.class,
              ListerWatchers.forResource(server.newClient(), Pod.class, OPTIONS),
              OPTIONS,
              Clock.system());
      Expectations<String> expectations = Expectations.create(Clock.system());
      pods.addEventHandler(
          event -> {
            if (event instanceof Event.Added<Pod> added) {
              expectations.creationObserved(KEY, added.object().getMetadata().getUid());
            }
          });
      Reconcile reconcile =
          () -> {
            if (withExpectations
                && !expectations.satisfied(KEY, pods.lastObservedResourceVersion())) {
              return;
            }
            int missing = (int) (REPLICAS - cachedPods(pods));
            if (missing <= 0) {
              return;
            }
            if (withExpectations) {
              expectations.expectCreations(KEY, missing);
            }
            for (int i = 0; i < missing; i++) {
              Pod created = createPod(client);
              if (withExpectations) {
                expectations.created(
                    KEY,
                    created.getMetadata().getUid(),
                    created.getMetadata().getResourceVersion());
              }
            }
          };
      try {
        pods.start();
        assertThat(pods.waitForCacheSync(Duration.ofSeconds(60))).isTrue();
        await("the pod watch", () -> pods.health().watching());
        RequestJournal.Mark mark = server.journal().mark();

        FaultInjector.Handle hold =
            server.faults().add(FaultRule.match().resource("pods").inject(Fault.holdEvents()));
        reconcile.run();
        reconcile.run();
        assertThat(cachedPods(pods)).as("the cache saw none of the creates yet").isZero();
        assertThat(hold.injected()).isGreaterThanOrEqualTo(REPLICAS);

        hold.remove();
        int created =
            server.journal().count(RequestMatcher.verb("create").resource("pods").since(mark));
        await("the cache catches up", () -> cachedPods(pods) == created);
        reconcile.run();
        return server.journal().count(RequestMatcher.verb("create").resource("pods").since(mark));
      } finally {
        pods.close();
      }
    }
  }

  @Test
  void naiveReconciler_overCreates_whenPodEventsAreHeldBack() {
    assertThat(createsUnderStaleCache(false)).isEqualTo(2 * REPLICAS);
  }

  @Test
  void expectationsReconciler_createsExactlyTheReplicas_whenPodEventsAreHeldBack() {
    assertThat(createsUnderStaleCache(true)).isEqualTo(REPLICAS);
  }
}
