package io.podset.operator;

import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import org.junit.jupiter.api.Test;

class WrittenStatusesTest {

  private final WrittenStatuses<String> written = new WrittenStatuses<>();
  private final PodSetStatus ours = PodSetStatus.builder().replicas(3).build();

  private static PodSet cachedAt(String resourceVersion) {
    PodSet podSet = podSet(3);
    podSet.getMetadata().setResourceVersion(resourceVersion);
    podSet.setStatus(PodSetStatus.builder().replicas(1).build());
    return podSet;
  }

  @Test
  void current_nothingWritten_theCachedStatus() {
    assertThat(written.current("k", cachedAt("10")).replicas()).isEqualTo(1);
    assertThat(written.current("k", podSet(1))).isEqualTo(PodSetStatus.empty());
  }

  @Test
  void current_cacheOlderThanOurWrite_ourStatus() {
    written.wrote("k", TestObjects.UID, ours, "20");

    assertThat(written.current("k", cachedAt("19"))).isEqualTo(ours);
  }

  @Test
  void current_cacheCaughtUp_theCachedStatusAndForgetsOurs() {
    written.wrote("k", TestObjects.UID, ours, "20");

    assertThat(written.current("k", cachedAt("20")).replicas()).isEqualTo(1);
    assertThat(written.current("k", cachedAt("5")).replicas()).isEqualTo(1);
  }

  @Test
  void current_anotherObjectOfTheSameName_theCachedStatus() {
    written.wrote("k", "uid-of-a-deleted-podset", ours, "20");

    assertThat(written.current("k", cachedAt("5")).replicas()).isEqualTo(1);
  }

  @Test
  void forget_dropsOurStatus() {
    written.wrote("k", TestObjects.UID, ours, "20");
    written.forget("k");

    assertThat(written.current("k", cachedAt("5")).replicas()).isEqualTo(1);
  }
}
