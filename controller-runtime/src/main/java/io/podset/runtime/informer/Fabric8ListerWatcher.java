package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A {@link ListerWatcher} over fabric8's low-level watch call, and either fabric8's list call or an
 * {@link HttpListPager} for lists.
 *
 * <p>The watch side runs on a client derived with {@code watchReconnectLimit=0}, so fabric8 does
 * not silently reconnect: every end of a watch reaches the reflector, which decides how to recover
 * and reports it in health. With that limit, fabric8 reports a watch the server ended normally at
 * its timeout as "exhausted reconnects"; such an end after (about) the requested timeout is passed
 * on as a normal end.
 */
final class Fabric8ListerWatcher<T extends HasMetadata> implements ListerWatcher<T> {

  /** How early before the requested timeout a server-side end still counts as the timeout. */
  private static final Duration TIMEOUT_SLACK = Duration.ofSeconds(2);

  private final Pager<T> pager;
  private final BiFunction<ListOptions, Watcher<T>, Watch> watcher;
  private final String labelSelector;
  private final String fieldSelector;
  private final Clock clock;
  private final String description;

  /** Where pages come from: fabric8's list call, or an {@link HttpListPager}. */
  interface Pager<T extends HasMetadata> {
    ListPage<T> list(ListRequest request);

    /** The continuation of the last page will not be asked for. */
    default void abandon() {}

    /** See {@link ListerWatcher#latestResourceVersion()}. */
    default String latestResourceVersion() {
      return list(new ListRequest("", 1, null)).resourceVersion();
    }
  }

  /** Pages from fabric8's list call, with the options' selectors. */
  static <T extends HasMetadata> Pager<T> listCall(
      Function<ListOptions, ? extends KubernetesResourceList<T>> lister, InformerOptions options) {
    Objects.requireNonNull(lister, "lister");
    Objects.requireNonNull(options, "options");
    return request -> page(lister.apply(listOptions(request, options)));
  }

  /** Lists through {@code pager}, which applies the selectors itself. */
  Fabric8ListerWatcher(
      Pager<T> pager,
      BiFunction<ListOptions, Watcher<T>, Watch> watcher,
      InformerOptions options,
      Clock clock,
      String description) {
    this.pager = Objects.requireNonNull(pager, "pager");
    this.watcher = Objects.requireNonNull(watcher, "watcher");
    this.labelSelector = options.labelSelector();
    this.fieldSelector = options.fieldSelector();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.description = Objects.requireNonNull(description, "description");
  }

  @Override
  public ListPage<T> list(ListRequest request) {
    return pager.list(request);
  }

  @Override
  public void abandonList() {
    pager.abandon();
  }

  @Override
  public String latestResourceVersion() {
    return pager.latestResourceVersion();
  }

  private static <T extends HasMetadata> ListPage<T> page(KubernetesResourceList<T> list) {
    ListMeta meta = list.getMetadata();
    List<T> items = list.getItems() == null ? List.of() : list.getItems();
    return new ListPage<>(
        items,
        meta == null ? null : meta.getResourceVersion(),
        meta == null ? null : meta.getContinue());
  }

  @Override
  public WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    Adapter adapter = new Adapter(listener, request.timeout());
    Watch watch = watcher.apply(watchOptions(request), adapter);
    return () -> {
      adapter.closedByClient.set(true);
      watch.close();
    };
  }

  @Override
  public String description() {
    return description;
  }

  static ListOptions listOptions(ListRequest request, InformerOptions selectors) {
    ListOptions options = new ListOptions();
    options.setLimit(request.limit());
    if (request.continueToken() != null && !request.continueToken().isEmpty()) {
      options.setContinue(request.continueToken());
    } else if (!request.resourceVersion().isEmpty()) {
      options.setResourceVersion(request.resourceVersion());
    }
    options.setLabelSelector(selectors.labelSelector());
    options.setFieldSelector(selectors.fieldSelector());
    return options;
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

    private RuntimeException classify(WatcherException cause) {
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

    private void end(RuntimeException cause) {
      if (closedByClient.get() || !ended.compareAndSet(false, true)) {
        return;
      }
      listener.onClose(cause);
    }
  }
}
