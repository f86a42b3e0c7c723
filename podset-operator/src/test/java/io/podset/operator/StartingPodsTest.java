package io.podset.operator;

import static io.podset.operator.TestObjects.T0;
import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class StartingPodsTest {

  private static final Duration DELAY = Duration.ofSeconds(1);
  private static final String KEY = "ns/web";

  private final PodSet podSet = podSet(3);
  private final StartingPods<String> starting = new StartingPods<>(DELAY);

  /** A status write the simulated reconciler let through: when, and the Ready pods it showed. */
  private record Write(Duration at, int ready) {}

  /**
   * Plays one PodSet's start as the reconciler sees it: its pods were created at T0 and their
   * events reached the cache at once; pod {@code i} turns Ready {@code readyAt[i]} after T0 (null:
   * never). A pass runs at each pod event and at each requeue a pass asked for; each pass asks
   * {@link StartingPods#waitFor} about a changed status and writes it when told to wait no more.
   * Runs until {@code until}.
   */
  private List<Write> play(Duration until, Duration... readyAt) {
    starting.created(KEY, 1);
    TreeSet<Duration> passes = new TreeSet<>();
    passes.add(Duration.ZERO);
    for (Duration at : readyAt) {
      if (at != null) {
        passes.add(at);
      }
    }
    List<Write> writes = new ArrayList<>();
    Integer writtenReady = null;
    while (!passes.isEmpty() && passes.first().compareTo(until) <= 0) {
      Duration at = passes.pollFirst();
      List<Pod> pods = new ArrayList<>();
      int ready = 0;
      for (int i = 0; i < readyAt.length; i++) {
        boolean isReady = readyAt[i] != null && readyAt[i].compareTo(at) <= 0;
        ready += isReady ? 1 : 0;
        pods.add(podOf(podSet, "web-" + i).ready(isReady, isReady ? T0 : null).build());
      }
      if (writtenReady != null && writtenReady == ready) {
        continue; // the status did not change: no write, nothing asked
      }
      Duration wait =
          starting.waitFor(
              KEY,
              1,
              pods,
              writtenReady == null ? PodSetStatus.empty() : written(1, writtenReady),
              T0.plus(at));
      if (wait.isZero()) {
        writes.add(new Write(at, ready));
        starting.wrote(KEY);
        writtenReady = ready;
      } else {
        passes.add(at.plus(wait));
      }
    }
    return writes;
  }

  /** A status written for {@code generation} that shows {@code ready} pods Ready. */
  private static PodSetStatus written(long generation, int ready) {
    return PodSetStatus.empty().toBuilder()
        .replicas(3)
        .readyReplicas(ready)
        .observedGeneration(generation)
        .build();
  }

  private static Duration s(double seconds) {
    return Duration.ofMillis(Math.round(seconds * 1000));
  }

  @Test
  void podsReadyOneAtATime1500msApart_twoWrites_theLastExactAsTheLastPodIsReady() {
    // Before: the status held 1 s, then one write per pod turning Ready: 4 writes.
    List<Write> writes = play(s(60), s(1.5), s(3), s(4.5));

    assertThat(writes).hasSizeLessThanOrEqualTo(2);
    assertThat(writes.get(writes.size() - 1)).isEqualTo(new Write(s(4.5), 3));
  }

  @Test
  void firstPodReadyAtOnce_othersEvery1500ms_twoWrites_theFirstWithinADelay() {
    List<Write> writes = play(s(60), s(0), s(1.5), s(3));

    assertThat(writes).containsExactly(new Write(s(1), 1), new Write(s(3), 3));
  }

  @Test
  void podsReadyTogetherAfterABacklog_theStatusShowsWithinFiveDelays_thenOnceAllAreReady() {
    List<Write> writes = play(s(60), s(10), s(10.1), s(10.2));

    assertThat(writes).containsExactly(new Write(s(5), 0), new Write(s(10.2), 3));
  }

  @Test
  void podsReadyWithinADelayOfTheFirst_oneWrite() {
    List<Write> writes = play(s(60), s(2), s(2.4), s(2.9));

    assertThat(writes).containsExactly(new Write(s(2.9), 3));
  }

  @Test
  void podsNeverReady_oneWriteAfterFiveDelays_thenNone() {
    List<Write> writes = play(s(600), null, null, null);

    assertThat(writes).containsExactly(new Write(s(5), 0));
  }

  @Test
  void manyPodsReadyEvery1500ms_windowsGrowToFiveDelays_theLastExact() {
    Duration[] readyAt = new Duration[12];
    for (int i = 0; i < readyAt.length; i++) {
      readyAt[i] = s(1.5 * (i + 1));
    }

    List<Write> writes = play(s(600), readyAt);

    // One write per pod before; here 12 pods over 18 s cost 5 writes (at 2.5, 5, 10, 15.5 and 18
    // s), the last one exact.
    assertThat(writes).hasSize(5);
    assertThat(writes.get(writes.size() - 1)).isEqualTo(new Write(s(18), 12));
    for (int i = 2; i < writes.size() - 1; i++) {
      Duration gap = writes.get(i).at().minus(writes.get(i - 1).at());
      assertThat(gap).isGreaterThanOrEqualTo(Duration.ofSeconds(4)).isLessThan(s(6.5));
    }
  }

  @Test
  void anotherGeneration_startsOver_andAStatusWithEveryPodReadyIsNotHeld() {
    Pod notReady = podOf(podSet, "web-0").notReady().build();
    PodSetStatus none = PodSetStatus.empty();
    starting.created(KEY, 1);
    assertThat(starting.waitFor(KEY, 1, List.of(notReady), none, T0)).isEqualTo(s(5));

    // The PodSet changed (say scaled down): its next status is not held for the old pods.
    assertThat(starting.waitFor(KEY, 2, List.of(notReady), none, T0)).isZero();
    assertThat(starting.waitFor(KEY, 1, List.of(notReady), none, T0)).isZero();

    starting.created(KEY, 3);
    assertThat(starting.waitFor(KEY, 3, List.of(podOf(podSet, "web-0").build()), none, T0))
        .isZero();
    // Every pod Ready ends the start: later changes are not held.
    assertThat(starting.waitFor(KEY, 3, List.of(notReady), written(3, 1), T0)).isZero();
  }

  @Test
  void scaledUp_theNewGenerationShowsWithinOneDelay_evenWithNoNewPodReady() {
    List<Pod> pods =
        List.of(
            podOf(podSet, "web-0").build(),
            podOf(podSet, "web-1").build(),
            podOf(podSet, "web-2").build(),
            podOf(podSet, "web-3").notReady().build(),
            podOf(podSet, "web-4").notReady().build());
    starting.created(KEY, 2);

    // The written status is generation 1's: 3 pods, all Ready.
    assertThat(starting.waitFor(KEY, 2, pods, written(1, 3), T0)).isEqualTo(DELAY);
    assertThat(starting.waitFor(KEY, 2, pods, written(1, 3), T0.plus(DELAY))).isZero();
    starting.wrote(KEY);
    // Then the windows of pods starting: no new pod Ready yet, five delays.
    assertThat(starting.waitFor(KEY, 2, pods, written(2, 3), T0.plus(s(2)))).isEqualTo(s(5));
  }

  @Test
  void zeroDelay_neverWaits() {
    StartingPods<String> none = new StartingPods<>(Duration.ZERO);
    none.created(KEY, 1);

    assertThat(
            none.waitFor(
                KEY,
                1,
                List.of(podOf(podSet, "web-0").notReady().build()),
                PodSetStatus.empty(),
                T0))
        .isZero();
  }
}
