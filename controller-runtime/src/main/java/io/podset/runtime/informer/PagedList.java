package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * The plain list a {@link Reflector} replaces its FIFO with: every page of it, each object
 * transformed. Follows continue tokens; later pages ask for no resourceVersion, as the token pins
 * the snapshot.
 */
final class PagedList<T extends HasMetadata> {

  /** A complete list: the transformed objects and the version of the snapshot they come from. */
  record Result<T>(List<T> items, String resourceVersion) {}

  private final ListerWatcher<T> listerWatcher;
  private final UnaryOperator<T> transform;
  private final int pageSize;

  PagedList(ListerWatcher<T> listerWatcher, UnaryOperator<T> transform, int pageSize) {
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.transform = Objects.requireNonNull(transform, "transform");
    this.pageSize = pageSize;
  }

  /**
   * Reads every page, starting at {@code resourceVersion}.
   *
   * @return the list, or null when {@code stopped} turned true between pages
   * @throws RuntimeException whatever the lister-watcher throws
   */
  Result<T> read(String resourceVersion, BooleanSupplier stopped) {
    List<T> items = new ArrayList<>();
    String listVersion;
    String continueToken = null;
    do {
      ListPage<T> page =
          listerWatcher.list(
              new ListRequest(
                  continueToken == null ? resourceVersion : "", pageSize, continueToken));
      for (T item : page.items()) {
        items.add(transform.apply(item));
      }
      listVersion = page.resourceVersion();
      continueToken = page.hasMore() ? page.continueToken() : null;
    } while (continueToken != null && !stopped.getAsBoolean());
    if (stopped.getAsBoolean()) {
      if (continueToken != null) {
        listerWatcher.abandonList();
      }
      return null;
    }
    return new Result<>(items, listVersion);
  }
}
