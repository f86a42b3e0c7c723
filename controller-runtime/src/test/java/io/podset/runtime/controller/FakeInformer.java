package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.cache.IndexFunction;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.MutableIndexer;
import io.podset.runtime.cache.ObjectKey;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.HandlerRegistration;
import io.podset.runtime.informer.InformerHealth;
import io.podset.runtime.informer.ResourceEventHandler;
import io.podset.runtime.informer.SharedInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An informer driven by the test: events are applied to its cache, then delivered synchronously on
 * the calling thread. It follows the server and met no fault unless the test says otherwise.
 */
final class FakeInformer<T extends HasMetadata> implements SharedInformer<T> {

  private final Class<T> type;
  private final List<ResourceEventHandler<? super T>> handlers = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  // While held, handler registrations report their initial state as not yet delivered.
  private final CompletableFuture<Void> initialDelivery = new CompletableFuture<>();
  private volatile boolean deliveryHeld;
  private volatile String lastError;
  private final MutableIndexer<T> cache = MutableIndexer.create();
  private volatile boolean following = true;
  private volatile boolean faulted;

  FakeInformer(Class<T> type) {
    this.type = type;
  }

  void sync() {
    synced.complete(null);
  }

  /** Registrations made from now on are synced only after {@link #finishInitialDelivery()}. */
  void holdInitialDelivery() {
    deliveryHeld = true;
  }

  void finishInitialDelivery() {
    initialDelivery.complete(null);
  }

  void failing(String error) {
    lastError = error;
  }

  /** From now on {@link #following} answers {@code following} (by default yes). */
  void following(boolean following) {
    this.following = following;
  }

  /** From now on {@link #faultedWithin} answers {@code faulted} (by default no). */
  void faulted(boolean faulted) {
    this.faulted = faulted;
  }

  /** Puts {@code object} in the cache without an event. */
  void cache(T object) {
    cache.upsert(object);
  }

  void add(T object) {
    cache.upsert(object);
    handlers.forEach(h -> h.onEvent(new Event.Added<>(object)));
  }

  void update(T oldObject, T newObject) {
    cache.upsert(newObject);
    handlers.forEach(h -> h.onEvent(new Event.Updated<>(oldObject, newObject)));
  }

  void delete(T object) {
    cache.delete(ObjectKey.of(object));
    handlers.forEach(h -> h.onEvent(new Event.Deleted<>(object, false)));
  }

  private final AtomicInteger inlineHandlers = new AtomicInteger();

  int handlerCount() {
    return handlers.size();
  }

  @Override
  public HandlerRegistration addEventHandler(ResourceEventHandler<? super T> handler) {
    handlers.add(handler);
    CompletableFuture<Void> registrationSynced =
        deliveryHeld ? synced.thenCombine(initialDelivery, (a, b) -> null) : synced;
    return new HandlerRegistration() {
      @Override
      public boolean hasSynced() {
        return registrationSynced.isDone();
      }

      @Override
      public CompletableFuture<Void> synced() {
        return registrationSynced;
      }

      @Override
      public void close() {
        handlers.remove(handler);
      }
    };
  }

  @Override
  public HandlerRegistration addEventHandler(
      ResourceEventHandler<? super T> handler, Duration resyncPeriod) {
    return addEventHandler(handler);
  }

  /**
   * Delivery is synchronous on the test's thread for every handler, so inline is the same; counted
   * in {@link #inlineHandlerCount()}.
   */
  @Override
  public HandlerRegistration addInlineEventHandler(ResourceEventHandler<? super T> handler) {
    inlineHandlers.incrementAndGet();
    return addEventHandler(handler);
  }

  /** How many handlers were added inline. */
  int inlineHandlerCount() {
    return inlineHandlers.get();
  }

  @Override
  public Indexer<T> indexer() {
    return cache.readOnlyView();
  }

  @Override
  public void addIndexers(Map<String, IndexFunction<T>> indexers) {
    cache.addIndexers(indexers);
  }

  @Override
  public boolean following(Duration tolerance, Duration maxSilence) {
    return following;
  }

  @Override
  public boolean faultedWithin(Duration window) {
    return faulted;
  }

  @Override
  public CompletableFuture<Void> start() {
    return synced;
  }

  @Override
  public boolean hasSynced() {
    return synced.isDone();
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) {
    return synced.isDone();
  }

  @Override
  public String lastSyncResourceVersion() {
    return null;
  }

  // Guarded by observedLock: the newest version observed (0 for none) and who waits for which.
  private final Object observedLock = new Object();
  private long observed;
  private final List<Map.Entry<Long, CompletableFuture<Void>>> observers = new ArrayList<>();

  /** The cache has now observed every change up to {@code resourceVersion}. */
  void observe(long resourceVersion) {
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    synchronized (observedLock) {
      observed = Math.max(observed, resourceVersion);
      observers.removeIf(
          entry -> {
            if (entry.getKey() <= observed) {
              ready.add(entry.getValue());
              return true;
            }
            return entry.getValue().isDone();
          });
    }
    ready.forEach(future -> future.complete(null));
  }

  @Override
  public String lastObservedResourceVersion() {
    synchronized (observedLock) {
      return observed == 0 ? null : Long.toString(observed);
    }
  }

  @Override
  public CompletableFuture<Void> awaitObserved(String resourceVersion) {
    long version = Long.parseLong(resourceVersion);
    CompletableFuture<Void> future = new CompletableFuture<>();
    synchronized (observedLock) {
      if (version > observed) {
        observers.add(Map.entry(version, future));
        return future;
      }
    }
    future.complete(null);
    return future;
  }

  @Override
  public InformerHealth health() {
    return new InformerHealth(synced.isDone(), synced.isDone(), null, null, 0, lastError);
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public void close() {}
}
