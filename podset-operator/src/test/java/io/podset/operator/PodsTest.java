package io.podset.operator;

import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import org.junit.jupiter.api.Test;

class PodsTest {

  private final PodSet podSet = podSet(1);

  @Test
  void normalizeImage_appliesDockerHubDefaults() {
    assertThat(Pods.normalizeImage("busybox")).isEqualTo("docker.io/library/busybox:latest");
    assertThat(Pods.normalizeImage("busybox:1.36")).isEqualTo("docker.io/library/busybox:1.36");
    assertThat(Pods.normalizeImage("docker.io/busybox"))
        .isEqualTo("docker.io/library/busybox:latest");
    assertThat(Pods.normalizeImage("index.docker.io/library/busybox:1"))
        .isEqualTo("docker.io/library/busybox:1");
    assertThat(Pods.normalizeImage("myorg/app:2")).isEqualTo("docker.io/myorg/app:2");
    assertThat(Pods.normalizeImage("quay.io/org/app")).isEqualTo("quay.io/org/app:latest");
    assertThat(Pods.normalizeImage("localhost:5000/app")).isEqualTo("localhost:5000/app:latest");
    assertThat(Pods.normalizeImage("busybox@sha256:abcd"))
        .isEqualTo("docker.io/library/busybox@sha256:abcd");
  }

  @Test
  void runsSpecImages_statusImageNormalizedEqual_true() {
    Pod pod = podOf(podSet, "p").statusImage("docker.io/library/busybox:latest").build();

    assertThat(Pods.runsSpecImages(pod)).isTrue();
    assertThat(Pods.isAvailable(pod)).isTrue();
  }

  @Test
  void runsSpecImages_statusOnOldImage_falseAndNotAvailable() {
    Pod pod = podOf(podSet, "p").image("busybox:1.36").statusImage("busybox:1.35").build();

    assertThat(Pods.runsSpecImages(pod)).isFalse();
    assertThat(Pods.isReady(pod)).isTrue();
    assertThat(Pods.isAvailable(pod)).isFalse();
  }

  @Test
  void runsSpecImages_noContainerStatuses_true() {
    assertThat(Pods.runsSpecImages(podOf(podSet, "p").build())).isTrue();
  }

  @Test
  void isActive_terminatingOrFinished_false() {
    assertThat(Pods.isActive(podOf(podSet, "p").build())).isTrue();
    assertThat(Pods.isActive(podOf(podSet, "p").terminating().build())).isFalse();
    assertThat(Pods.isActive(podOf(podSet, "p").phase("Failed").build())).isFalse();
    assertThat(Pods.isActive(podOf(podSet, "p").phase("Succeeded").build())).isFalse();
  }

  @Test
  void phaseRank_pendingUnknownRunning() {
    assertThat(Pods.phaseRank(podOf(podSet, "p").phase(null).build())).isZero();
    assertThat(Pods.phaseRank(podOf(podSet, "p").phase("Pending").build())).isZero();
    assertThat(Pods.phaseRank(podOf(podSet, "p").phase("Unknown").build())).isEqualTo(1);
    assertThat(Pods.phaseRank(podOf(podSet, "p").phase("Running").build())).isEqualTo(2);
  }

  @Test
  void restarts_maxOverContainers() {
    assertThat(Pods.restarts(podOf(podSet, "p").restarts(3).build())).isEqualTo(3);
    assertThat(Pods.restarts(podOf(podSet, "p").build())).isZero();
  }

  @Test
  void readySince_badTimestamp_null() {
    Pod pod = podOf(podSet, "p").build();
    pod.getStatus().getConditions().get(0).setLastTransitionTime("yesterday");

    assertThat(Pods.readySince(pod)).isNull();
    assertThat(Pods.isReady(pod)).isTrue();
  }
}
