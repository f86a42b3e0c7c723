package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The two calls a reflector makes to the API server for one resource (in one namespace or all, with
 * fixed label and field selectors): a paginated list and a watch.
 *
 * <p>{@link io.podset.runtime.informer.ListerWatchers#forResource} adapts the fabric8 client; tests
 * script their own. Implementations must not retry on their own: the reflector decides how to
 * recover (relist, re-watch, back off) from the failures reported to it.
 *
 * <p>Failures are unchecked: a {@link io.fabric8.kubernetes.client.KubernetesClientException}
 * carrying the HTTP code and Status (410 Gone, 429 Too Many Requests, 504 with a
 * ResourceVersionTooLarge cause, ...), or any other {@link RuntimeException} for a connection that
 * could not be made or broke.
 *
 * @param <T> the listed type
 */
public interface ListerWatcher<T extends HasMetadata> {

  /**
   * Lists one page; blocks until the response.
   *
   * @throws RuntimeException on failure, as described on the type
   */
  ListPage<T> list(ListRequest request);

  /**
   * Opens a watch; returns once it is established. Events and the end of the watch are delivered to
   * {@code listener} on the implementation's thread.
   *
   * @throws RuntimeException if the watch could not be opened, as described on the type
   */
  WatchHandle watch(WatchRequest request, WatchListener<T> listener);

  /**
   * Tells that the continuation of the page listed last will not be asked for (the list stopped
   * half-way); an implementation that requested the next page ahead releases it. Does nothing by
   * default.
   */
  default void abandonList() {}

  /**
   * The server's newest resourceVersion for this resource now, for the cache lag ({@link
   * io.podset.runtime.informer.SharedInformer#lag()}): a quorum list of one object (resourceVersion
   * "", limit 1). By default a {@link #list} call; an implementation that requests pages ahead
   * overrides it so that a probe never disturbs a list in progress. May be called from another
   * thread than the reflector's.
   *
   * @throws RuntimeException on failure, as described on the type
   */
  default @Nullable String latestResourceVersion() {
    return list(new ListRequest("", 1, null)).resourceVersion();
  }

  /** A short description for logs, like {@code "v1/pods in namespace default"}. */
  String description();
}
