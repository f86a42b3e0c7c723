package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One page of a list response.
 *
 * @param items the objects on this page
 * @param resourceVersion the list's resourceVersion (the same on every page of one list)
 * @param continueToken the token for the next page, or null/empty on the last page
 */
public record ListPage<T extends HasMetadata>(
    List<T> items, @Nullable String resourceVersion, @Nullable String continueToken) {

  /** Copies the items. */
  public ListPage {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
  }

  /** Whether more pages follow. */
  public boolean hasMore() {
    return continueToken != null && !continueToken.isEmpty();
  }
}
