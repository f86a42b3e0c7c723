package io.podset.runtime.event;

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

  /** One more API write per object is allowed per this period once the burst is spent. */
  public static final Duration DEFAULT_REFILL = Duration.ofSeconds(10);

  private EventRecorders() {}

  /**
   * A recorder writing core/v1 Events through {@code client} in the background, aggregating repeats
   * into one Event's count and limiting API writes per object (burst {@value #DEFAULT_BURST}, then
   * one per {@link #DEFAULT_REFILL}).
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
        sink, clock, io, component, instance, DEFAULT_BURST, DEFAULT_REFILL);
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
