package io.podset.runtime.informer.transport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Receives the events of one watch, in order, from one thread at a time.
 *
 * @param <T> the watched type
 */
public interface WatchListener<T extends HasMetadata> {

  /** An event, in resourceVersion order. */
  void onEvent(WatchEvent<T> event);

  /**
   * The watch ended; no event follows. Called at most once, and not after the watch was closed by
   * its {@link WatchHandle}.
   *
   * @param cause null when the server ended the watch normally (its timeout), otherwise the
   *     failure: a {@link io.fabric8.kubernetes.client.KubernetesClientException} with the HTTP
   *     code (410 when the version is gone) or any exception for a broken connection
   */
  void onClose(@Nullable RuntimeException cause);
}
