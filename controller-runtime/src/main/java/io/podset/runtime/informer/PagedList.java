package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.informer.transport.ListPage;
import io.podset.runtime.informer.transport.ListRequest;
import io.podset.runtime.informer.transport.ListerWatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The plain list a {@link Reflector} replaces its FIFO with: every page of it, each object
 * transformed. Follows continue tokens; later pages ask for no resourceVersion, as the token pins
 * the snapshot.
 *
 * <p>A page that fails is asked again, from the same continue token and keeping the pages already
 * read, as long as {@link PageRetry} says so (the reflector: a broken connection, 429 or 5xx, a few
 * times, after its backoff or the server's Retry-After); client-go's pager starts the whole list
 * over instead, which under recurring faults on a large collection may never complete.
 */
final class PagedList<T extends HasMetadata> {

  /** Decides whether a failed page is asked again. */
  @FunctionalInterface
  interface PageRetry {
    /**
     * Called after the {@code attempt}-th failure of one page (1 for its first); waits as long as
     * needed before the page is asked again.
     *
     * @return true to ask for the page again, false to fail the list with {@code error}
     */
    boolean retry(RuntimeException error, int attempt);
  }

  /** A complete list: the transformed objects and the version of the snapshot they come from. */
  record Result<T>(List<T> items, @Nullable String resourceVersion) {}

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
   * @throws RuntimeException whatever the lister-watcher throws for a page {@code retry} gives up
   */
  @Nullable Result<T> read(String resourceVersion, BooleanSupplier stopped, PageRetry retry) {
    List<T> items = new ArrayList<>();
    String listVersion;
    String continueToken = null;
    do {
      ListPage<T> page = page(resourceVersion, continueToken, retry);
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

  private ListPage<T> page(
      String resourceVersion, @Nullable String continueToken, PageRetry retry) {
    ListRequest request =
        new ListRequest(continueToken == null ? resourceVersion : "", pageSize, continueToken);
    for (int attempt = 1; ; attempt++) {
      try {
        return listerWatcher.list(request);
      } catch (RuntimeException e) {
        if (!retry.retry(e, attempt)) {
          throw e;
        }
      }
    }
  }
}
