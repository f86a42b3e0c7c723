package io.podset.runtime.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podset.runtime.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregatingEventRecorderTest {

  private final ManualClock clock = new ManualClock();
  private final RecordingSink sink = new RecordingSink();
  private final EventRecorder recorder =
      EventRecorders.create(sink, clock, Runnable::run, "podset-operator", "pod-a");

  private static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(name)
        .withUid("uid-" + name)
        .endMetadata()
        .build();
  }

  /** Lets the aggregation window pass, so what was recorded is written. */
  private void windowPasses() {
    clock.advance(EventRecorders.DEFAULT_WINDOW);
  }

  @Test
  void firstEvent_createsAnEventDescribingTheObject() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pod p-1");
    windowPasses();

    Event event = sink.only();
    assertThat(event.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(event.getMetadata().getName()).startsWith("p.");
    assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
    assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-p");
    assertThat(event.getType()).isEqualTo("Normal");
    assertThat(event.getReason()).isEqualTo("SuccessfulCreate");
    assertThat(event.getMessage()).isEqualTo("Created pod p-1");
    assertThat(event.getCount()).isEqualTo(1);
    assertThat(event.getSource().getComponent()).isEqualTo("podset-operator");
    assertThat(event.getReportingInstance()).isEqualTo("pod-a");
  }

  @Test
  void record_writesNothingBeforeTheWindowCloses() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: a");
    clock.advance(EventRecorders.DEFAULT_WINDOW.minusMillis(1));
    assertThat(sink.writes).isZero();

    clock.advance(Duration.ofMillis(1));
    assertThat(sink.writes).isEqualTo(1);
  }

  @Test
  void hundredIdenticalEvents_inOneWindow_makeOneWriteWithCount100() {
    for (int i = 0; i < 100; i++) {
      recorder.warning(pod("p"), "FailedCreate", "quota exceeded");
    }
    windowPasses();

    assertThat(sink.only().getCount()).isEqualTo(100);
    assertThat(sink.writes).isEqualTo(1);
  }

  @Test
  void hundredIdenticalEvents_overManyWindows_makeOneEventWithCount100_andFewWrites() {
    for (int i = 0; i < 100; i++) {
      recorder.warning(pod("p"), "FailedCreate", "quota exceeded");
      windowPasses();
    }
    clock.advance(Duration.ofMinutes(1));

    assertThat(sink.events).hasSize(1);
    assertThat(sink.only().getCount()).isEqualTo(100);
    // 100 windows of one second: the burst, then one write per refill period.
    assertThat(sink.writes).isLessThanOrEqualTo(EventRecorders.DEFAULT_BURST + 11);
  }

  @Test
  void listsOfOneReason_inOneWindow_combineIntoOneEvent() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: p-a");
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: p-b, p-c");
    windowPasses();

    Event event = sink.only();
    assertThat(event.getMessage()).isEqualTo("Created pods: p-a, p-b, p-c");
    assertThat(event.getCount()).isEqualTo(1);
    assertThat(sink.writes).isEqualTo(1);
  }

  @Test
  void differentMessagesWithoutACommonHead_areJoined() {
    recorder.warning(pod("p"), "FailedCreate", "quota exceeded");
    recorder.warning(pod("p"), "FailedCreate", "timeout");
    windowPasses();

    assertThat(sink.only().getMessage()).isEqualTo("quota exceeded; timeout");
  }

  @Test
  void differentReasonsOrTypes_areDifferentEvents() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: a");
    recorder.normal(pod("p"), "SuccessfulDelete", "Deleted pods: b");
    recorder.warning(pod("p"), "SuccessfulCreate", "Created pods: c");
    windowPasses();

    assertThat(sink.events.values())
        .extracting(Event::getMessage)
        .containsExactlyInAnyOrder("Created pods: a", "Deleted pods: b", "Created pods: c");
  }

  @Test
  void differentObjects_areDifferentEvents() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: a");
    recorder.normal(pod("q"), "SuccessfulCreate", "Created pods: b");
    windowPasses();

    assertThat(sink.events).hasSize(2);
  }

  @Test
  void recordsAfterTheWindow_makeANewEvent() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: a");
    windowPasses();
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: b");
    windowPasses();

    assertThat(sink.events.values())
        .extracting(Event::getMessage)
        .containsExactlyInAnyOrder("Created pods: a", "Created pods: b");
  }

  @Test
  void hotLoop_isLimitedPerObject_butOtherObjectsAreNot() {
    for (int i = 0; i < 1000; i++) {
      recorder.warning(pod("hot"), "FailedCreate", "attempt " + i);
      windowPasses();
    }
    int hotWrites = sink.writes;
    recorder.normal(pod("calm"), "SuccessfulCreate", "ok");
    windowPasses();

    // 1000 windows of one second: the burst, then one write per refill period.
    long refills =
        EventRecorders.DEFAULT_WINDOW.multipliedBy(1000).toNanos()
            / EventRecorders.DEFAULT_REFILL.toNanos();
    assertThat(hotWrites).isLessThanOrEqualTo(EventRecorders.DEFAULT_BURST + (int) refills + 1);
    assertThat(sink.events.values())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("calm"))
        .hasSize(1);
  }

  @Test
  void churningObject_tenMinutes_writesFewerEventsThanClientGoAllows_andTellsEveryPod() {
    // A PodSet whose pods are replaced every 5 s for 10 minutes (the chaos soak's churn): a create
    // and a delete each time, each naming its pod.
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: new-" + i);
      recorder.normal(pod("p"), "SuccessfulDelete", "Deleted pods: old-" + i);
      names.add("new-" + i);
      names.add("old-" + i);
      clock.advance(Duration.ofSeconds(5));
    }
    int during = sink.writes;
    clock.advance(EventRecorders.DEFAULT_REFILL.multipliedBy(2));

    // client-go's spam filter lets 25 + 2 through in 10 minutes (and drops the rest); with a 10-s
    // refill this was 70 writes.
    assertThat(during).isLessThanOrEqualTo(22);
    String told = String.join(" ", sink.events.values().stream().map(Event::getMessage).toList());
    assertThat(names).allSatisfy(name -> assertThat(told).contains(name));
  }

  @Test
  void throttledRecords_areKeptAndWrittenTogether() {
    for (int i = 0; i < EventRecorders.DEFAULT_BURST; i++) {
      recorder.warning(pod("p"), "Reason" + i, "spends a write token");
    }
    windowPasses();
    recorder.warning(pod("p"), "FailedCreate", "Error creating: late-1");
    windowPasses();
    recorder.warning(pod("p"), "FailedCreate", "Error creating: late-2");
    windowPasses();
    assertThat(sink.writes).isEqualTo(EventRecorders.DEFAULT_BURST);

    clock.advance(EventRecorders.DEFAULT_REFILL);

    assertThat(sink.writes).isEqualTo(EventRecorders.DEFAULT_BURST + 1);
    assertThat(sink.events.values())
        .extracting(Event::getMessage)
        .contains("Error creating: late-1, late-2");
  }

  @Test
  void expiredEvent_isCreatedAgain() {
    recorder.normal(pod("p"), "Scaled", "up");
    windowPasses();
    sink.events.clear();

    recorder.normal(pod("p"), "Scaled", "up");
    windowPasses();

    assertThat(sink.only().getCount()).isEqualTo(2);
  }

  @Test
  void sinkFailure_isRetriedAndNeverThrowsToTheCaller() {
    sink.failuresLeft = 2;
    recorder.normal(pod("p"), "Scaled", "up");
    windowPasses();
    assertThat(sink.events).isEmpty();

    clock.advance(EventRecorders.DEFAULT_REFILL.multipliedBy(3));
    assertThat(sink.only().getCount()).isEqualTo(1);
  }

  @Test
  void sinkFailure_keepsTheFailedRecordsAheadOfNewerOnes() {
    sink.failuresLeft = 1;
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: a");
    windowPasses();
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pods: b");

    clock.advance(EventRecorders.DEFAULT_REFILL);

    assertThat(sink.only().getMessage()).isEqualTo("Created pods: a, b");
  }

  @Test
  void badArguments_areDroppedNotThrown() {
    recorder.normal(null, "Reason", "message");
    recorder.record(pod("p"), null, "Reason", "message");
    windowPasses();
    assertThat(sink.events).isEmpty();
  }

  /** An in-memory Events API. */
  private static final class RecordingSink implements EventSink {
    final Map<String, Event> events = new HashMap<>();
    final List<String> log = new ArrayList<>();
    int writes;
    int failuresLeft;

    Event only() {
      assertThat(events).hasSize(1);
      return events.values().iterator().next();
    }

    @Override
    public String create(Event event) {
      fail();
      writes++;
      events.put(event.getMetadata().getName(), event);
      return event.getMetadata().getName();
    }

    @Override
    public boolean updateCount(String namespace, String name, int count, String lastTimestamp) {
      fail();
      writes++;
      Event event = events.get(name);
      if (event == null) {
        return false;
      }
      event.setCount(count);
      event.setLastTimestamp(lastTimestamp);
      return true;
    }

    private void fail() {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new IllegalStateException("injected 503");
      }
    }
  }
}
