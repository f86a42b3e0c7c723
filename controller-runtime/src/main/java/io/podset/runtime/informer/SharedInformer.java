package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.cache.IndexFunction;
import io.podset.runtime.cache.Indexer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A cache of one resource kept up to date by list and watch, shared by any number of handlers.
 *
 * <p>One thread lists and watches; changes are applied to the {@link #indexer()} and handed to the
 * handlers one at a time, in order: by the thread that receives a watch event when no earlier
 * change is pending (no thread hand-off), else by the informer's processing thread. Each handler
 * has its own unbounded buffer and thread, unless it was added {@linkplain #addInlineEventHandler
 * inline}. All methods are thread-safe.
 *
 * @param <T> the cached type
 */
public interface SharedInformer<T extends HasMetadata> extends CacheVersion, AutoCloseable {

  /**
   * Adds a handler with the informer's default resync period. May be called before or after {@link
   * #start()}; after, the handler first receives an add for every cached object.
   */
  HandlerRegistration addEventHandler(ResourceEventHandler<? super T> handler);

  /**
   * Adds a handler with its own resync period (zero for none; positive periods below one second are
   * raised to one second): every period it receives an {@code Event.Updated(obj, obj)} for each
   * cached object that has no change pending.
   *
   * @throws IllegalArgumentException if {@code resyncPeriod} is negative
   * @throws IllegalStateException if the informer is closed
   */
  HandlerRegistration addEventHandler(
      ResourceEventHandler<? super T> handler, Duration resyncPeriod);

  /**
   * Adds a handler, with the informer's default resync period, that is called directly where the
   * informer applies a change to its cache (under the informer's locks, one event at a time, in
   * order), with no buffer and no thread of its own: one thread hand-off less per event, which is
   * most of an event's latency on a busy machine. For handlers of your own that only hand work on
   * without blocking. Controllers do not use it: their filters and mappers are user code, and a
   * slow one must not stall a cache other controllers share. An inline handler that is slow delays
   * the cache, the watch and every other handler; an exception it throws is logged and ignored.
   * Added after {@link #start()}, it receives the synthetic adds on the calling thread, before this
   * method returns.
   *
   * @throws IllegalStateException if the informer is closed
   */
  HandlerRegistration addInlineEventHandler(ResourceEventHandler<? super T> handler);

  /** The cache (read-only view). */
  Indexer<T> indexer();

  /**
   * Adds indices to the cache, indexing the objects already in it.
   *
   * @throws IllegalArgumentException if a name is already in use
   */
  void addIndexers(Map<String, IndexFunction<T>> indexers);

  /**
   * Starts listing and watching; idempotent.
   *
   * @return a future completed once the initial list is in the cache (never, while the list keeps
   *     failing: see {@link #health()}); cancelled by {@link #close()}
   * @throws IllegalStateException if the informer is closed
   */
  CompletableFuture<Void> start();

  /** Whether the initial list has been processed into the cache. */
  boolean hasSynced();

  /**
   * Waits (in real time) until synced.
   *
   * @return whether the informer synced within the timeout
   */
  boolean waitForCacheSync(Duration timeout);

  /** The resourceVersion the reflector has reached: of the last list, event or bookmark. */
  @Nullable String lastSyncResourceVersion();

  @Override
  @Nullable String lastObservedResourceVersion();

  /** {@inheritDoc} Cancelled when the informer closes. */
  @Override
  CompletableFuture<Void> awaitObserved(String resourceVersion);

  /**
   * How far the cache is behind the server, sampled (see the {@code informer_lag_seconds} metric in
   * the package documentation): the age of the oldest change the server was seen to have that the
   * cache still lacks, zero when it lacks none. Empty while unknown (before the first sample, or
   * when sampling is off). By default always empty.
   */
  default Optional<Duration> lag() {
    return Optional.empty();
  }

  /** The current health; see {@link InformerHealth}. */
  InformerHealth health();

  /** The cached type. */
  Class<T> type();

  /** Stops watching and processing and the handlers' threads; idempotent. */
  @Override
  void close();
}
