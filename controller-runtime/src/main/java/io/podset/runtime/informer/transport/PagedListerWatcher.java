package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ListerWatcher} of two parts: lists through a {@link Pager} (an {@link HttpListPager} or
 * fabric8's list call), watches through a watch call ({@link HttpWatch}: HTTP streaming, events
 * handed over on the delivering thread; or {@link Fabric8Watch}).
 */
final class PagedListerWatcher<T extends HasMetadata> implements ListerWatcher<T> {

  private final Pager<T> pager;
  private final BiFunction<WatchRequest, WatchListener<T>, WatchHandle> watch;
  private final String description;

  PagedListerWatcher(
      Pager<T> pager,
      BiFunction<WatchRequest, WatchListener<T>, WatchHandle> watch,
      String description) {
    this.pager = Objects.requireNonNull(pager, "pager");
    this.watch = Objects.requireNonNull(watch, "watch");
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
  public @Nullable String latestResourceVersion() {
    return pager.latestResourceVersion();
  }

  @Override
  public WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    return watch.apply(request, listener);
  }

  @Override
  public String description() {
    return description;
  }
}
