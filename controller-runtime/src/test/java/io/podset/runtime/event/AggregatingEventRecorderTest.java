package io.podset.runtime.event;

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

  @Test
  void firstEvent_createsAnEventDescribingTheObject() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pod p-1");
    clock.runDueTasks();

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
  void hundredIdenticalEvents_makeOneEventWithCount100_andFewWrites() {
    for (int i = 0; i < 100; i++) {
      recorder.warning(pod("p"), "FailedCreate", "quota exceeded");
      clock.runDueTasks();
    }
    clock.advance(Duration.ofMinutes(1));

    assertThat(sink.events).hasSize(1);
    assertThat(sink.only().getCount()).isEqualTo(100);
    assertThat(sink.writes).isLessThanOrEqualTo(EventRecorders.DEFAULT_BURST + 6);
  }

  @Test
  void hotLoop_isLimitedPerObject_butOtherObjectsAreNot() {
    for (int i = 0; i < 1000; i++) {
      recorder.warning(pod("hot"), "FailedCreate", "attempt " + i);
      clock.runDueTasks();
    }
    recorder.normal(pod("calm"), "SuccessfulCreate", "ok");
    clock.runDueTasks();

    assertThat(sink.events.values())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("hot"))
        .hasSize(EventRecorders.DEFAULT_BURST);
    assertThat(sink.events.values())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("calm"))
        .hasSize(1);
  }

  @Test
  void differentMessages_areDifferentEvents() {
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pod a");
    recorder.normal(pod("p"), "SuccessfulCreate", "Created pod b");
    clock.runDueTasks();

    assertThat(sink.events).hasSize(2);
  }

  @Test
  void expiredEvent_isCreatedAgain() {
    recorder.normal(pod("p"), "Scaled", "up");
    clock.runDueTasks();
    sink.events.clear();

    recorder.normal(pod("p"), "Scaled", "up");
    clock.runDueTasks();

    assertThat(sink.only().getCount()).isEqualTo(2);
  }

  @Test
  void sinkFailure_isRetriedAndNeverThrowsToTheCaller() {
    sink.failuresLeft = 2;
    recorder.normal(pod("p"), "Scaled", "up");
    clock.runDueTasks();
    assertThat(sink.events).isEmpty();

    clock.advance(EventRecorders.DEFAULT_REFILL.multipliedBy(3));
    assertThat(sink.only().getCount()).isEqualTo(1);
  }

  @Test
  void badArguments_areDroppedNotThrown() {
    recorder.normal(null, "Reason", "message");
    recorder.record(pod("p"), null, "Reason", "message");
    clock.runDueTasks();
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
    public Event create(Event event) {
      fail();
      writes++;
      events.put(event.getMetadata().getName(), event);
      return event;
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
