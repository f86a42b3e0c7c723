package io.podset.operator;

import static io.podset.operator.TestObjects.podOf;
import static io.podset.operator.TestObjects.podSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podset.api.v1alpha1.PodSet;
import io.podset.runtime.event.Event;
import io.podset.runtime.expectations.Expectations;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodEventsTest {

  private final Expectations<Request> expectations = Expectations.create(new ManualClock());
  private final UnconfirmedOwners unconfirmed = new UnconfirmedOwners();
  private final PodEvents handler = new PodEvents(expectations, unconfirmed);
  private final PodSet podSet = podSet(1);
  private final Request web = new Request("default", "web");

  @Test
  void added_ownedPod_lowersCreationsAndNamesTheOwner() {
    expectations.expectCreations(web, 2);
    expectations.created(web, "uid-web-0", "10");
    expectations.created(web, "uid-web-1", "11");

    assertThat(handler.requestsFor(new Event.Added<>(podOf(podSet, "web-0").build())))
        .containsExactly(web);

    assertThat(expectations.pendingCreations(web)).isEqualTo(1);
  }

  @Test
  void added_terminatingPod_countsAsDeletionObserved() {
    Pod pod = podOf(podSet, "web-0").terminating().build();
    expectations.expectDeletions(web, List.of("uid-web-0"));

    handler.requestsFor(new Event.Added<>(pod));

    assertThat(expectations.pendingDeletions(web)).isEmpty();
  }

  @Test
  void updated_becameTerminating_lowersDeletions() {
    Pod before = podOf(podSet, "web-0").build();
    Pod after = podOf(podSet, "web-0").terminating().build();
    expectations.expectDeletions(web, List.of("uid-web-0"));

    assertThat(handler.requestsFor(new Event.Updated<>(before, after))).containsExactly(web);

    assertThat(expectations.pendingDeletions(web)).isEmpty();
  }

  @Test
  void updated_statusOnly_doesNotTouchExpectations() {
    Pod before = podOf(podSet, "web-0").notReady().build();
    Pod after = podOf(podSet, "web-0").build();
    expectations.expectCreations(web, 1);
    expectations.expectDeletions(web, List.of("uid-web-0"));

    handler.requestsFor(new Event.Updated<>(before, after));

    assertThat(expectations.pendingCreations(web)).isEqualTo(1);
    assertThat(expectations.pendingDeletions(web)).containsExactly("uid-web-0");
  }

  @Test
  void deleted_lowersDeletions() {
    expectations.expectDeletions(web, List.of("uid-web-0"));

    handler.requestsFor(new Event.Deleted<>(podOf(podSet, "web-0").build(), true));

    assertThat(expectations.pendingDeletions(web)).isEmpty();
  }

  @Test
  void deleted_notAskedFor_marksTheOwnerUnconfirmed() {
    assertThat(handler.requestsFor(new Event.Deleted<>(podOf(podSet, "web-0").build(), false)))
        .containsExactly(web);

    assertThat(unconfirmed.isMarked(web)).isTrue();
  }

  @Test
  void updated_becameTerminatingNotAskedFor_marksTheOwnerUnconfirmed() {
    Pod before = podOf(podSet, "web-0").build();
    Pod after = podOf(podSet, "web-0").terminating().build();

    handler.requestsFor(new Event.Updated<>(before, after));

    assertThat(unconfirmed.isMarked(web)).isTrue();
  }

  @Test
  void deletionsWeAskedFor_neverMarkTheOwner() {
    expectations.expectDeletions(web, List.of("uid-web-0", "uid-web-1"));
    Pod running = podOf(podSet, "web-0").build();
    Pod terminating = podOf(podSet, "web-0").terminating().build();

    handler.requestsFor(new Event.Updated<>(running, terminating));
    handler.requestsFor(new Event.Deleted<>(terminating, false));
    handler.requestsFor(new Event.Deleted<>(podOf(podSet, "web-1").build(), false));

    assertThat(unconfirmed.isMarked(web)).isFalse();
  }

  @Test
  void orphanWithTheLabel_namesThePodSetOfTheLabel() {
    Pod orphan = podOf(podSet, "stray").orphan().label(PodSetLabels.PODSET, "db").build();

    assertThat(handler.requestsFor(new Event.Added<>(orphan)))
        .containsExactly(new Request("default", "db"));
  }

  @Test
  void podOfAnotherController_namesNothing() {
    Pod foreign = podOf(podSet, "x").controlledBy("ReplicaSet", "rs", "uid-rs").build();
    expectations.expectCreations(web, 1);

    assertThat(handler.requestsFor(new Event.Added<>(foreign))).isEmpty();
    assertThat(expectations.pendingCreations(web)).isEqualTo(1);
  }

  @Test
  void updated_controllerChanged_namesOldAndNewOwner() {
    Pod before = podOf(podSet, "p").build();
    Pod after = podOf(podSet, "p").orphan().label(PodSetLabels.PODSET, "other").build();

    assertThat(handler.requestsFor(new Event.Updated<>(before, after)))
        .containsExactlyInAnyOrder(web, new Request("default", "other"));
  }
}
