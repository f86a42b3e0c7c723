package io.podset.operator.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How the soak tells a create sent from a stale view from one in flight across the deletion. */
class DeletionRaceTest {

  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createSentAfterTheDeletionWasAnswered_isFromAStaleView() {
    createPodSet();
    client.resources(PodSet.class).inNamespace("default").withName("web").delete();
    Pod pod = createPod();

    DeletionRace.Finding race = DeletionRace.of(server.journal(), "default/web", key(pod));

    assertThat(race.kind()).as(race.line()).isEqualTo(DeletionRace.Kind.STALE_VIEW);
    assertThat(race.line()).contains(pod.getMetadata().getName()).contains("delete arrived +0 ms");
  }

  @Test
  void createHeldAcrossTheDeletion_isInFlight() {
    createPodSet();
    FaultInjector.Handle latency =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("create")
                    .resource("pods")
                    .times(1)
                    .inject(Fault.latency(Duration.ofSeconds(1))));
    CompletableFuture<Pod> held = CompletableFuture.supplyAsync(this::createPod);
    // The create arrived and waits out its latency while the deletion is sent and answered.
    Eventually.await("the create held", () -> latency.injected() == 1);
    client.resources(PodSet.class).inNamespace("default").withName("web").delete();
    Pod pod = held.join();

    DeletionRace.Finding race = DeletionRace.of(server.journal(), "default/web", key(pod));

    assertThat(race.kind()).as(race.line()).isEqualTo(DeletionRace.Kind.IN_FLIGHT);
    assertThat(race.line()).contains("[latency 1000 ms]");
  }

  @Test
  void podSetRecreatedUnderItsName_theDeletionBeforeTheCreateCounts() {
    createPodSet();
    client.resources(PodSet.class).inNamespace("default").withName("web").delete();
    Eventually.await(
        "the first PodSet gone",
        () -> client.resources(PodSet.class).inNamespace("default").withName("web").get() == null);
    createPodSet();
    Pod pod = createPod();
    client.resources(PodSet.class).inNamespace("default").withName("web").delete();

    // The pod came after the first deletion and before the second: it follows the first.
    assertThat(DeletionRace.of(server.journal(), "default/web", key(pod)).kind())
        .isEqualTo(DeletionRace.Kind.STALE_VIEW);
    assertThat(DeletionRace.of(server.journal(), "default/gone", key(pod)).kind())
        .isEqualTo(DeletionRace.Kind.UNKNOWN);
  }

  private void createPodSet() {
    client
        .resources(PodSet.class)
        .resource(PodSet.of("default", "web", PodSetSpec.ofReplicas(1)))
        .create();
  }

  private Pod createPod() {
    return client
        .pods()
        .inNamespace("default")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withGenerateName("web-")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
