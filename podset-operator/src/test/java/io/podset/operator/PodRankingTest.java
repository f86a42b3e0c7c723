package io.podset.operator;

import static io.podset.operator.TestObjects.T0;
import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodRankingTest {

  private final PodSet podSet = podSet(1);
  private final String hash = PodTemplateHash.of(podSet.getSpec().effectiveTemplate()).full();

  private List<String> ranked(Pod... pods) {
    List<Pod> list = new ArrayList<>(List.of(pods));
    Collections.reverse(list);
    list.sort(PodRanking.forDeletion(hash));
    return list.stream().map(p -> p.getMetadata().getName()).toList();
  }

  @Test
  void forDeletion_unscheduledBeforeScheduled() {
    Pod scheduled = podOf(podSet, "scheduled").phase("Pending").notReady().build();
    Pod unscheduled = podOf(podSet, "unscheduled").unscheduled().build();

    assertThat(ranked(scheduled, unscheduled)).containsExactly("unscheduled", "scheduled");
  }

  @Test
  void forDeletion_pendingBeforeUnknownBeforeRunning() {
    Pod running = podOf(podSet, "running").notReady().build();
    Pod unknown = podOf(podSet, "unknown").phase("Unknown").notReady().build();
    Pod pending = podOf(podSet, "pending").phase("Pending").notReady().build();

    assertThat(ranked(running, unknown, pending)).containsExactly("pending", "unknown", "running");
  }

  @Test
  void forDeletion_notReadyBeforeReady() {
    Pod ready = podOf(podSet, "ready").build();
    Pod notReady = podOf(podSet, "not-ready").notReady().build();

    assertThat(ranked(ready, notReady)).containsExactly("not-ready", "ready");
  }

  @Test
  void forDeletion_outdatedBeforeCurrentWhenOtherwiseEqual() {
    Pod current = podOf(podSet, "a-current").build();
    Pod outdated = podOf(podSet, "b-outdated").label(PodSetLabels.TEMPLATE_HASH, "old").build();

    assertThat(ranked(current, outdated)).containsExactly("b-outdated", "a-current");
  }

  @Test
  void forDeletion_recentlyReadyBeforeLongReady() {
    Pod longReady = podOf(podSet, "long").ready(true, T0).build();
    Pod recent = podOf(podSet, "recent").ready(true, T0.plusSeconds(30)).build();
    Pod unknownTime = podOf(podSet, "unknown-time").ready(true, null).build();

    assertThat(ranked(longReady, recent, unknownTime))
        .containsExactly("unknown-time", "recent", "long");
  }

  @Test
  void forDeletion_moreRestartsFirst() {
    Pod calm = podOf(podSet, "calm").restarts(0).build();
    Pod crashy = podOf(podSet, "crashy").restarts(7).build();

    assertThat(ranked(calm, crashy)).containsExactly("crashy", "calm");
  }

  @Test
  void forDeletion_newerBeforeOlder() {
    Pod old = podOf(podSet, "old").created(T0).build();
    Pod young = podOf(podSet, "young").created(T0.plusSeconds(5)).build();

    assertThat(ranked(old, young)).containsExactly("young", "old");
  }

  @Test
  void forDeletion_readinessOutranksAge() {
    Pod oldNotReady = podOf(podSet, "old-not-ready").created(T0).notReady().build();
    Pod youngReady = podOf(podSet, "young-ready").created(T0.plusSeconds(5)).build();

    assertThat(ranked(youngReady, oldNotReady)).containsExactly("old-not-ready", "young-ready");
  }

  @Test
  void forDeletion_fullTies_brokenByName() {
    Pod b = podOf(podSet, "b").build();
    Pod a = podOf(podSet, "a").build();

    assertThat(ranked(b, a)).containsExactly("a", "b");
  }
}
