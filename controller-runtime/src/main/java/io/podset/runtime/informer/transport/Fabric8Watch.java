package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The watch side of a {@link PagedListerWatcher} over fabric8's low-level watch call.
 *
 * <p>The watch side runs on a client derived with {@code watchReconnectLimit=0}, so fabric8 does
 * not silently reconnect: every end of a watch reaches the reflector, which decides how to recover
 * and reports it in health. With that limit, fabric8 reports a watch the server ended normally at
 * its timeout as "exhausted reconnects"; such an end after (about) the requested timeout is passed
 * on as a normal end.
 */
final class Fabric8Watch<T extends HasMetadata> {

  /** How early before the requested timeout a server-side end still counts as the timeout. */
  private static final Duration TIMEOUT_SLACK = Duration.ofSeconds(2);

  private final BiFunction<ListOptions, Watcher<T>, Watch> watcher;
  private final @Nullable String labelSelector;
  private final @Nullable String fieldSelector;
  private final Clock clock;

  Fabric8Watch(
      BiFunction<ListOptions, Watcher<T>, Watch> watcher, Selection selection, Clock clock) {
    this.watcher = Objects.requireNonNull(watcher, "watcher");
    this.labelSelector = selection.labelSelector();
    this.fieldSelector = selection.fieldSelector();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    Adapter adapter = new Adapter(listener, request.timeout());
    Watch watch = watcher.apply(watchOptions(request), adapter);
    return () -> {
      adapter.closedByClient.set(true);
      watch.close();
    };
  }

  ListOptions watchOptions(WatchRequest request) {
    ListOptions options = new ListOptions();
    if (!request.resourceVersion().isEmpty()) {
      options.setResourceVersion(request.resourceVersion());
    }
    options.setAllowWatchBookmarks(request.allowBookmarks());
    options.setTimeoutSeconds(Math.max(1, request.timeout().toSeconds()));
    if (request.sendInitialEvents()) {
      options.setSendInitialEvents(true);
      options.setResourceVersionMatch("NotOlderThan");
    }
    options.setLabelSelector(labelSelector);
    options.setFieldSelector(fieldSelector);
    return options;
  }

  /** Turns fabric8's watcher callbacks into {@link WatchListener} calls. */
  private final class Adapter implements Watcher<T> {
    private final WatchListener<T> listener;
    private final long startedNanos;
    private final Duration timeout;
    private final AtomicBoolean closedByClient = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();

    Adapter(WatchListener<T> listener, Duration timeout) {
      this.listener = listener;
      this.timeout = timeout;
      this.startedNanos = clock.nanoTime();
    }

    @Override
    public void eventReceived(Action action, T resource) {
      if (ended.get() || resource == null) {
        return;
      }
      switch (action) {
        case ADDED -> listener.onEvent(new WatchEvent.Added<>(resource));
        case MODIFIED -> listener.onEvent(new WatchEvent.Modified<>(resource));
        case DELETED -> listener.onEvent(new WatchEvent.Deleted<>(resource));
        case BOOKMARK -> {
          ObjectMeta meta = resource.getMetadata();
          if (meta != null && meta.getResourceVersion() != null) {
            listener.onEvent(
                new WatchEvent.Bookmark<>(meta.getResourceVersion(), meta.getAnnotations()));
          }
        }
        default -> {
          // ERROR events carry a Status; fabric8 turns them into onClose.
        }
      }
    }

    @Override
    public void onClose() {
      end(null);
    }

    @Override
    public void onClose(WatcherException cause) {
      end(classify(cause));
    }

    private @Nullable RuntimeException classify(WatcherException cause) {
      if (cause.isHttpGone()) {
        return cause.asClientException();
      }
      Duration lasted = Duration.ofNanos(clock.nanoTime() - startedNanos);
      boolean noDetail = cause.getCause() == null;
      if (noDetail && lasted.compareTo(timeout.minus(TIMEOUT_SLACK)) >= 0) {
        return null; // the server ended the watch at its timeout
      }
      KubernetesClientException e = cause.asClientException();
      return e != null ? e : new KubernetesClientException(cause.getMessage(), cause);
    }

    private void end(@Nullable RuntimeException cause) {
      if (closedByClient.get() || !ended.compareAndSet(false, true)) {
        return;
      }
      listener.onClose(cause);
    }
  }
}
