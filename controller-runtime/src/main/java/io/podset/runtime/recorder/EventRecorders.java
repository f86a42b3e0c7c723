package io.podset.runtime.recorder;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/** Factories of {@link EventRecorder}s. */
public final class EventRecorders {

  /** API writes an object may cause at once before its events are throttled. */
  public static final int DEFAULT_BURST = 10;

  /**
   * One more API write per object is allowed per this period once the burst is spent. Records are
   * never dropped (client-go's spam filter drops them past a burst of 25, then lets one through per
   * 5 min): they wait and are written together, with their count, so a longer period costs a person
   * watching a minute at most, and an object churning under faults one write a minute instead of
   * six once its burst is spent (a third of the chaos soak's writes were Events with a 10-s period,
   * 12 to 17 per PodSet).
   */
  public static final Duration DEFAULT_REFILL = Duration.ofSeconds(60);

  /**
   * How long records of one object, type and reason are collected before they are written as one
   * Event: long enough to take in the batches of one reconcile, short enough for a person watching.
   */
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

  private EventRecorders() {}

  /**
   * A recorder writing core/v1 Events through {@code client} from one background thread: the
   * records of one object, type and reason within {@link #DEFAULT_WINDOW} become one Event (see
   * {@link EventRecorder}), and API writes are limited per object (burst {@value #DEFAULT_BURST},
   * then one per {@link #DEFAULT_REFILL}).
   *
   * @param component the reporting component, e.g. {@code podset-operator}
   * @param instance the reporting instance, e.g. the pod name
   */
  public static EventRecorder create(KubernetesClient client, String component, String instance) {
    Objects.requireNonNull(client, "client");
    return create(
        new KubernetesEventSink(client), Clock.system(), backgroundExecutor(), component, instance);
  }

  static EventRecorder create(
      EventSink sink, Clock clock, Executor io, String component, String instance) {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(instance, "instance");
    return new AggregatingEventRecorder(
        sink, clock, io, component, instance, DEFAULT_BURST, DEFAULT_REFILL, DEFAULT_WINDOW);
  }

  private static Executor backgroundExecutor() {
    return Executors.newSingleThreadExecutor(
        runnable -> {
          Thread thread = new Thread(runnable, "podset-event-recorder");
          thread.setDaemon(true);
          return thread;
        });
  }
}
