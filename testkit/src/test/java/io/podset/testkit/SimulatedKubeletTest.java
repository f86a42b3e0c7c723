package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated kubelet, driven step by step by a manual clock. */
class SimulatedKubeletTest {

  private final ManualClock clock = new ManualClock();
  private FakeApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server =
        FakeApiServer.builder()
            .clock(clock)
            .kubelet(
                KubeletOptions.defaults()
                    .withNodeName("node-a")
                    .withScheduleDelay(Duration.ofSeconds(1))
                    .withStartDelay(Duration.ofSeconds(2))
                    .withReadyDelay(Duration.ofSeconds(3)))
            .start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Pod create(String name, Map<String, String> annotations) {
    return client
        .pods()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("registry.example/app:1.0")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private Pod get(String name) {
    return client.pods().withName(name).get();
  }

  private static String condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .map(PodCondition::getStatus)
        .findFirst()
        .orElse(null);
  }

  @Test
  void newPod_isScheduledStartedAndReady_afterConfiguredDelays() {
    create("web", Map.of());
    clock.advance(Duration.ofMillis(999));
    assertThat(get("web").getSpec().getNodeName()).isNull();

    clock.advance(Duration.ofMillis(1));
    Pod scheduled = get("web");
    assertThat(scheduled.getSpec().getNodeName()).isEqualTo("node-a");
    assertThat(scheduled.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(condition(scheduled, "PodScheduled")).isEqualTo("True");

    clock.advance(Duration.ofSeconds(2));
    Pod running = get("web");
    assertThat(running.getStatus().getPhase()).isEqualTo("Running");
    assertThat(running.getStatus().getPodIP()).matches("10\\.244\\.\\d+\\.\\d+");
    assertThat(running.getStatus().getStartTime()).isEqualTo("2026-01-01T00:00:03Z");
    assertThat(condition(running, "Ready")).isEqualTo("False");
    ContainerStatus container = running.getStatus().getContainerStatuses().get(0);
    assertThat(container.getImage()).isEqualTo("registry.example/app:1.0");
    assertThat(container.getReady()).isFalse();
    assertThat(container.getState().getRunning().getStartedAt()).isEqualTo("2026-01-01T00:00:03Z");

    clock.advance(Duration.ofSeconds(3));
    Pod ready = get("web");
    assertThat(condition(ready, "Ready")).isEqualTo("True");
    assertThat(condition(ready, "ContainersReady")).isEqualTo("True");
    assertThat(ready.getStatus().getContainerStatuses().get(0).getReady()).isTrue();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void imagePatchedIntoReadyPod_restartsTheContainerOnIt_thenReadyAgain() {
    create("web", Map.of());
    clock.advance(Duration.ofSeconds(6));
    assertThat(condition(get("web"), "Ready")).isEqualTo("True");

    client
        .pods()
        .withName("web")
        .edit(
            p -> {
              p.getSpec().getContainers().get(0).setImage("registry.example/app:2.0");
              return p;
            });
    assertThat(get("web").getStatus().getContainerStatuses().get(0).getImage())
        .as("still the old container until the kubelet restarts it")
        .isEqualTo("registry.example/app:1.0");

    clock.advance(Duration.ofSeconds(2));
    Pod restarted = get("web");
    ContainerStatus container = restarted.getStatus().getContainerStatuses().get(0);
    assertThat(container.getImage()).isEqualTo("registry.example/app:2.0");
    assertThat(container.getRestartCount()).isEqualTo(1);
    assertThat(container.getLastState().getTerminated().getExitCode()).isEqualTo(137);
    assertThat(container.getState().getRunning().getStartedAt()).isEqualTo("2026-01-01T00:00:08Z");
    assertThat(condition(restarted, "Ready")).isEqualTo("False");

    clock.advance(Duration.ofSeconds(3));
    assertThat(condition(get("web"), "Ready")).isEqualTo("True");
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void annotatedPods_neverReady_fail_crashLoop_unschedulable() {
    create("slow", Map.of(SimulatedKubelet.FATE_KEY, "never-ready"));
    create("broken", Map.of(SimulatedKubelet.FATE_KEY, "fail"));
    create("crashy", Map.of(SimulatedKubelet.FATE_KEY, "crash-loop"));
    create("stuck", Map.of(SimulatedKubelet.FATE_KEY, "unschedulable"));
    clock.advance(Duration.ofSeconds(60));

    Pod slow = get("slow");
    assertThat(slow.getStatus().getPhase()).isEqualTo("Running");
    assertThat(condition(slow, "Ready")).isEqualTo("False");

    Pod broken = get("broken");
    assertThat(broken.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(
            broken
                .getStatus()
                .getContainerStatuses()
                .get(0)
                .getState()
                .getTerminated()
                .getExitCode())
        .isEqualTo(1);

    Pod crashy = get("crashy");
    ContainerStatus crashing = crashy.getStatus().getContainerStatuses().get(0);
    assertThat(crashing.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
    // Started at 3 s; back-off 10, 20 s: restarts at 3, 13, 33 s; the next is due at 73 s.
    assertThat(crashing.getRestartCount()).isEqualTo(3);
    clock.advance(Duration.ofSeconds(20));
    assertThat(get("crashy").getStatus().getContainerStatuses().get(0).getRestartCount())
        .isEqualTo(4);

    Pod stuck = get("stuck");
    assertThat(stuck.getSpec().getNodeName()).isNull();
    assertThat(stuck.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(condition(stuck, "PodScheduled")).isEqualTo("False");
  }

  @Test
  void predicateRule_choosesFate_untilRemoved() {
    Registration rule =
        server
            .kubelet()
            .assign(
                pod -> pod.getMetadata().getName().startsWith("canary"),
                SimulatedKubelet.PodFate.NEVER_READY);
    create("canary-1", Map.of());
    rule.remove();
    create("canary-2", Map.of());
    clock.advance(Duration.ofSeconds(10));
    assertThat(condition(get("canary-1"), "Ready")).isEqualTo("False");
    assertThat(condition(get("canary-2"), "Ready")).isEqualTo("True");
  }

  @Test
  void setFate_onReadyPod_failsOrCrashesOrRecovers() {
    create("a", Map.of());
    clock.advance(Duration.ofSeconds(10));
    assertThat(condition(get("a"), "Ready")).isEqualTo("True");

    server.kubelet().setFate("default", "a", SimulatedKubelet.PodFate.NEVER_READY);
    assertThat(condition(get("a"), "Ready")).isEqualTo("False");

    server.kubelet().setFate("default", "a", SimulatedKubelet.PodFate.CRASH_LOOP);
    assertThat(get("a").getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);

    server.kubelet().setFate("default", "a", SimulatedKubelet.PodFate.RUN);
    Pod recovered = get("a");
    assertThat(condition(recovered, "Ready")).isEqualTo("True");
    assertThat(recovered.getStatus().getContainerStatuses().get(0).getState().getRunning())
        .isNotNull();

    server.kubelet().setFate("default", "a", SimulatedKubelet.PodFate.FAIL);
    assertThat(get("a").getStatus().getPhase()).isEqualTo("Failed");

    assertThatThrownBy(
            () -> server.kubelet().setFate("default", "a", SimulatedKubelet.PodFate.UNSCHEDULABLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bound");
    assertThatThrownBy(
            () -> server.kubelet().setFate("default", "nope", SimulatedKubelet.PodFate.RUN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default/nope");
  }

  @Test
  void deletingBoundPod_staysForGracePeriod_thenIsRemoved() {
    Pod pod = create("web", Map.of());
    clock.advance(Duration.ofSeconds(10));

    client.pods().withName("web").delete();
    Pod terminating = get("web");
    assertThat(terminating.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
    assertThat(Instant.parse(terminating.getMetadata().getDeletionTimestamp()))
        .isEqualTo(Instant.parse("2026-01-01T00:00:40Z"));

    clock.advance(Duration.ofSeconds(29));
    assertThat(get("web")).isNotNull();
    clock.advance(Duration.ofSeconds(1));
    assertThat(get("web")).isNull();

    // A new pod of the same name is a new pod: its own stages, its own uid.
    Pod again = create("web", Map.of());
    assertThat(again.getMetadata().getUid()).isNotEqualTo(pod.getMetadata().getUid());
    clock.advance(Duration.ofSeconds(10));
    assertThat(condition(get("web"), "Ready")).isEqualTo("True");
  }

  @Test
  void deleteWithShorterGrace_shortensIt_andZeroRemovesAtOnce() {
    create("a", Map.of());
    create("b", Map.of());
    clock.advance(Duration.ofSeconds(10));

    client.pods().withName("a").withGracePeriod(5).delete();
    assertThat(get("a").getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(5L);
    client.pods().withName("a").withGracePeriod(2).delete();
    assertThat(get("a").getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(2L);
    clock.advance(Duration.ofSeconds(2));
    assertThat(get("a")).isNull();

    client.pods().withName("b").withGracePeriod(0).delete();
    assertThat(get("b")).isNull();
  }

  @Test
  void terminationDelay_endsGracePeriodEarly() {
    server.kubelet().enable(server.kubelet().options().withTerminationDelay(Duration.ofSeconds(1)));
    create("a", Map.of());
    clock.advance(Duration.ofSeconds(10));
    client.pods().withName("a").delete();
    assertThat(get("a")).isNotNull();
    clock.advance(Duration.ofSeconds(1));
    assertThat(get("a")).isNull();
  }

  @Test
  void disabledKubelet_leavesPodsPending_andUnboundPodsDeleteAtOnce() {
    server.kubelet().disable();
    create("idle", Map.of());
    clock.advance(Duration.ofSeconds(60));
    assertThat(get("idle").getStatus().getPhase()).isEqualTo("Pending");
    assertThat(clock.pendingTasks()).isZero();
    client.pods().withName("idle").delete();
    assertThat(get("idle")).isNull();

    create("later", Map.of());
    server.kubelet().enable();
    clock.advance(Duration.ofSeconds(10));
    assertThat(condition(get("later"), "Ready")).isEqualTo("True");
  }

  @Test
  void options_rejectBadValues() {
    assertThatThrownBy(() -> KubeletOptions.defaults().withNodeName("Not_A_Node"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeName");
    assertThatThrownBy(() -> KubeletOptions.defaults().withStartDelay(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startDelay");
    assertThatThrownBy(() -> SimulatedKubelet.PodFate.fromValue("explode"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("explode");
  }
}
