package io.podset.runtime.informer;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * How far a cache has read one resource's changes from the server, by resourceVersion: what the
 * read-your-writes barrier ({@link io.podset.runtime.controller.ReadYourWrites}) waits on. Every
 * {@link SharedInformer} is one; so can be a cache a test fills by hand.
 */
public interface CacheVersion {

  /**
   * The newest resourceVersion r such that every change up to r is in the cache (null before the
   * first list). Changes of one resource arrive in resourceVersion order, so once this is at least
   * the version returned by a write, the cache reflects that write, or something newer.
   */
  @Nullable String lastObservedResourceVersion();

  /**
   * A future completed once {@link #lastObservedResourceVersion()} reaches {@code resourceVersion}
   * (compared as numbers, see {@link ResourceVersions}); cancel it to stop waiting.
   *
   * @throws IllegalArgumentException if {@code resourceVersion} is not numeric
   */
  CompletableFuture<Void> awaitObserved(String resourceVersion);
}
