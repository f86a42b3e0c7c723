package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A {@link ListerWatcher} that talks HTTP itself for both calls: lists through a {@link
 * Fabric8ListerWatcher.Pager} (an {@link HttpListPager} or fabric8's list call) and watches through
 * an {@link HttpWatch} (HTTP streaming, events handed over on the delivering thread).
 */
final class HttpListerWatcher<T extends HasMetadata> implements ListerWatcher<T> {

  private final Fabric8ListerWatcher.Pager<T> pager;
  private final HttpWatch<T> watch;
  private final String description;

  HttpListerWatcher(Fabric8ListerWatcher.Pager<T> pager, HttpWatch<T> watch, String description) {
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
  public String latestResourceVersion() {
    return pager.latestResourceVersion();
  }

  @Override
  public WatchHandle watch(WatchRequest request, WatchListener<T> listener) {
    return watch.watch(request, listener);
  }

  @Override
  public String description() {
    return description;
  }
}
