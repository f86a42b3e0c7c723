package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Factories of stand-alone {@link SharedInformer}s (a {@link SharedInformerFactory} shares them).
 */
public final class SharedInformers {

  private SharedInformers() {}

  /**
   * An informer over any {@link ListerWatcher}, not started.
   *
   * <p>Only the tuning part of {@code options} is used (resync, transform, streaming list, page
   * size): the lister-watcher already fixes the namespace and selectors.
   *
   * @param type the cached type
   * @param listerWatcher the source of lists and watches
   * @param options tuning
   * @param clock time for backoff, resync and timeouts
   */
  public static <T extends HasMetadata> SharedInformer<T> create(
      Class<T> type, ListerWatcher<T> listerWatcher, InformerOptions options, Clock clock) {
    Objects.requireNonNull(options, "options");
    return create(type, listerWatcher, options, clock, reflectorConfig(options), null);
  }

  /**
   * An informer over any {@link ListerWatcher}, not started, publishing the {@code informer_*}
   * meters (lists, relists, watches, watch restarts by reason, events by type, last sync age, cache
   * size; see the package documentation) in {@code registry}, tagged with its name.
   *
   * @param type the cached type
   * @param listerWatcher the source of lists and watches
   * @param options tuning
   * @param clock time for backoff, resync, timeouts and the last sync age
   * @param registry where the meters go
   */
  public static <T extends HasMetadata> SharedInformer<T> create(
      Class<T> type,
      ListerWatcher<T> listerWatcher,
      InformerOptions options,
      Clock clock,
      MeterRegistry registry) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(registry, "registry");
    return create(type, listerWatcher, options, clock, reflectorConfig(options), registry);
  }

  static <T extends HasMetadata> SharedInformer<T> create(
      Class<T> type,
      ListerWatcher<T> listerWatcher,
      InformerOptions options,
      Clock clock,
      ReflectorConfig config) {
    return create(type, listerWatcher, options, clock, config, null);
  }

  /** The informer; {@code registry} null for no meters. */
  static <T extends HasMetadata> SharedInformer<T> create(
      Class<T> type,
      ListerWatcher<T> listerWatcher,
      InformerOptions options,
      Clock clock,
      ReflectorConfig config,
      @Nullable MeterRegistry registry) {
    return new DefaultSharedInformer<>(type, listerWatcher, options, clock, config, registry);
  }

  static ReflectorConfig reflectorConfig(InformerOptions options) {
    return ReflectorConfig.defaults()
        .withStreamingList(options.streamingList())
        .withPageSize(options.pageSize());
  }
}
