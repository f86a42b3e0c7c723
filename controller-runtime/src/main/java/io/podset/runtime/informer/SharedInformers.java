package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.time.Clock;
import java.util.Objects;

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
    return create(type, listerWatcher, options, clock, reflectorConfig(options));
  }

  static <T extends HasMetadata> SharedInformer<T> create(
      Class<T> type,
      ListerWatcher<T> listerWatcher,
      InformerOptions options,
      Clock clock,
      ReflectorConfig config) {
    return new DefaultSharedInformer<>(type, listerWatcher, options, clock, config);
  }

  static ReflectorConfig reflectorConfig(InformerOptions options) {
    return ReflectorConfig.defaults()
        .withStreamingList(options.streamingList())
        .withPageSize(options.pageSize());
  }
}
