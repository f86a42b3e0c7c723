package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.cache.IndexFunction;
import io.podset.runtime.cache.Indexer;
import io.podset.runtime.cache.MutableIndexer;
import io.podset.runtime.cache.ObjectKey;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SharedInformer}: a reflector, a delta FIFO, an indexer and handler listeners; with a
 * meter registry, {@link InformerMetrics}.
 */
final class DefaultSharedInformer<T extends HasMetadata> implements SharedInformer<T> {

  private static final Logger log = LoggerFactory.getLogger(DefaultSharedInformer.class);

  private final Class<T> type;
  private final String name;
  private final Clock clock;
  private final Duration defaultResync;
  private final MutableIndexer<T> indexer = MutableIndexer.create();
  private final DeltaFifo<T> fifo;
  private final Reflector<T> reflector;
  private final InformerMetrics metrics;
  private final CacheLag lag;
  // Null when lag sampling is off.
  private final @Nullable LagProbe lagProbe;
  private final ObservedVersions observed = new ObservedVersions();
  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  private final Thread processor;

  // Guards the handler set and its resync state, and is held while a popped key's deltas are
  // applied and distributed, so a handler added meanwhile sees a consistent cache. Lock order:
  // FIFO lock, then this.
  private final Object handlersLock = new Object();
  // All guarded by handlersLock.
  private final List<HandlerListener<T>> listeners = new ArrayList<>();
  // The handlers whose resync is due; SYNC deltas and unchanged relisted objects go only to them.
  private List<HandlerListener<T>> syncingListeners = List.of();
  private Clock.@Nullable Cancellable resyncTimer;
  private int handlerCount;
  private boolean informerSynced;
  private boolean started;
  private boolean closed;

  DefaultSharedInformer(
      Class<T> type,
      ListerWatcher<T> listerWatcher,
      InformerOptions options,
      Clock clock,
      ReflectorConfig config,
      @Nullable MeterRegistry registry) {
    this.type = Objects.requireNonNull(type, "type");
    Objects.requireNonNull(listerWatcher, "listerWatcher");
    Objects.requireNonNull(options, "options");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.name = type.getSimpleName() + "[" + listerWatcher.description() + "]";
    this.defaultResync = options.resyncPeriod();
    this.fifo =
        new DeltaFifo<>(
            indexer,
            this::onSynced,
            version -> observed.advance(version, clock.nanoTime()),
            this::handleDeltas);
    this.metrics =
        registry == null ? InformerMetrics.none() : InformerMetrics.create(registry, name);
    this.reflector =
        new Reflector<>(
            name,
            listerWatcher,
            fifo,
            typedTransform(type, options.transform()),
            clock,
            config,
            metrics);
    this.lag = new CacheLag(fifo::observedResourceVersion);
    this.lagProbe =
        config.lagSamplePeriod().isZero()
            ? null
            : new LagProbe(name, listerWatcher, lag, clock, config.lagSamplePeriod());
    metrics.bind(
        name,
        indexer::size,
        () -> reflector.status().lastEventTime(),
        () -> lag.lag(clock.nanoTime()),
        clock);
    this.processor = new Thread(this::processLoop, "informer-" + name);
    processor.setDaemon(true);
  }

  @Override
  public HandlerRegistration addEventHandler(ResourceEventHandler<? super T> handler) {
    return addEventHandler(handler, defaultResync);
  }

  @Override
  public HandlerRegistration addEventHandler(
      ResourceEventHandler<? super T> handler, Duration resyncPeriod) {
    return addHandler(handler, resyncPeriod, false);
  }

  @Override
  public HandlerRegistration addInlineEventHandler(ResourceEventHandler<? super T> handler) {
    return addHandler(handler, defaultResync, true);
  }

  private HandlerRegistration addHandler(
      ResourceEventHandler<? super T> handler, Duration resyncPeriod, boolean inline) {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resyncPeriod must not be negative: " + resyncPeriod);
    }
    Duration period = InformerOptions.clampResync(resyncPeriod);
    synchronized (handlersLock) {
      if (closed) {
        throw new IllegalStateException("informer " + name + " is closed");
      }
      HandlerListener<T> listener =
          new HandlerListener<>(
              "handler-" + name + "-" + handlerCount++, handler, period, inline, this::remove);
      listener.nextResyncNanos(clock.nanoTime() + period.toNanos());
      if (started) {
        // A late handler first learns the current state, as if each object had just been added.
        for (T obj : indexer.list()) {
          listener.enqueue(new Event.Added<>(obj));
        }
        if (informerSynced) {
          listener.markSynced();
        }
      }
      listeners.add(listener);
      listener.start();
      if (started) {
        scheduleResyncLocked();
      }
      return listener;
    }
  }

  private void remove(HandlerListener<T> listener) {
    synchronized (handlersLock) {
      listeners.remove(listener);
      List<HandlerListener<T>> syncing = new ArrayList<>(syncingListeners);
      syncing.remove(listener);
      syncingListeners = List.copyOf(syncing);
    }
  }

  @Override
  public Indexer<T> indexer() {
    return indexer.readOnlyView();
  }

  @Override
  public void addIndexers(Map<String, IndexFunction<T>> indexers) {
    indexer.addIndexers(indexers);
  }

  @Override
  public CompletableFuture<Void> start() {
    synchronized (handlersLock) {
      if (closed) {
        throw new IllegalStateException("informer " + name + " is closed");
      }
      if (started) {
        return synced;
      }
      started = true;
      scheduleResyncLocked();
    }
    processor.start();
    reflector.start();
    if (lagProbe != null) {
      lagProbe.start();
    }
    return synced;
  }

  @Override
  public boolean hasSynced() {
    return fifo.hasSynced();
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    try {
      synced.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException | ExecutionException | CancellationException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public @Nullable String lastSyncResourceVersion() {
    return reflector.lastSyncResourceVersion();
  }

  @Override
  public @Nullable String lastObservedResourceVersion() {
    return fifo.observedResourceVersion();
  }

  @Override
  public CompletableFuture<Void> awaitObserved(String resourceVersion) {
    return observed.await(resourceVersion, clock.nanoTime());
  }

  @Override
  public boolean following(Duration tolerance, Duration maxSilence) {
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(maxSilence, "maxSilence");
    // The sampled lag is left out: a quiet resource reads as lagging until its next bookmark.
    return reflector.status().watching()
        && observed.following(clock.nanoTime(), tolerance.toNanos(), maxSilence.toNanos());
  }

  @Override
  public boolean faultedWithin(Duration window) {
    Objects.requireNonNull(window, "window");
    return reflector.faultedWithin(window);
  }

  @Override
  public Optional<Duration> lag() {
    return Optional.ofNullable(lag.lag(clock.nanoTime()));
  }

  @Override
  public InformerHealth health() {
    ReflectorState.Status status = reflector.status();
    return new InformerHealth(
        status.watching(),
        fifo.hasSynced(),
        status.lastEventTime(),
        status.lastSyncResourceVersion(),
        status.relistCount(),
        status.lastError());
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public void close() {
    List<HandlerListener<T>> toStop;
    synchronized (handlersLock) {
      if (closed) {
        return;
      }
      closed = true;
      if (resyncTimer != null) {
        resyncTimer.cancel();
      }
      toStop = List.copyOf(listeners);
      listeners.clear();
      syncingListeners = List.of();
    }
    reflector.close();
    if (lagProbe != null) {
      lagProbe.close();
    }
    metrics.close();
    fifo.close();
    processor.interrupt();
    for (HandlerListener<T> listener : toStop) {
      listener.stop();
    }
    synced.cancel(false);
    observed.cancelAll();
  }

  @Override
  public String toString() {
    return "SharedInformer[" + name + "]";
  }

  // --- processing ---

  private void processLoop() {
    try {
      while (fifo.pop(this::handleDeltas)) {
        // keep popping
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.debug("Informer {} stopped processing", name);
  }

  /**
   * Applies one key's deltas to the cache and notifies the handlers; runs under the FIFO lock, on
   * the processing thread or (direct processing) on the thread that delivered a watch event.
   */
  private void handleDeltas(String key, List<Delta<T>> deltas) {
    synchronized (handlersLock) {
      for (Delta<T> delta : deltas) {
        T obj = delta.object();
        if (delta.type() == DeltaType.DELETED) {
          indexer.delete(ObjectKey.parse(key));
          distribute(new Event.Deleted<>(obj, delta.finalStateUnknown()), false);
          continue;
        }
        Optional<T> old = indexer.upsert(obj);
        if (old.isPresent()) {
          boolean isSync =
              delta.type() == DeltaType.SYNC
                  || (delta.type() == DeltaType.REPLACED && sameVersion(old.get(), obj));
          distribute(new Event.Updated<>(old.get(), obj), isSync);
        } else {
          distribute(new Event.Added<>(obj), false);
        }
      }
    }
  }

  private void distribute(Event<T> event, boolean isSync) {
    for (HandlerListener<T> listener : isSync ? syncingListeners : listeners) {
      listener.enqueue(event);
    }
  }

  private static boolean sameVersion(HasMetadata a, HasMetadata b) {
    String x = a.getMetadata().getResourceVersion();
    return x != null && x.equals(b.getMetadata().getResourceVersion());
  }

  private void onSynced() {
    synchronized (handlersLock) {
      informerSynced = true;
      for (HandlerListener<T> listener : listeners) {
        listener.markSynced();
      }
    }
    log.debug("Informer {} synced", name);
    // Complete off this thread: dependents must not run inside the reflector or processor.
    synced.completeAsync(() -> null);
  }

  // --- resync ---

  private void scheduleResyncLocked() {
    if (resyncTimer != null) {
      resyncTimer.cancel();
      resyncTimer = null;
    }
    long earliest = Long.MAX_VALUE;
    for (HandlerListener<T> listener : listeners) {
      if (!listener.resyncPeriod().isZero()) {
        earliest = Math.min(earliest, listener.nextResyncNanos());
      }
    }
    if (earliest != Long.MAX_VALUE && !closed) {
      long delay = Math.max(0, earliest - clock.nanoTime());
      resyncTimer = clock.schedule(Duration.ofNanos(delay), this::resyncTick);
    }
  }

  private void resyncTick() {
    boolean due;
    synchronized (handlersLock) {
      if (closed) {
        return;
      }
      long now = clock.nanoTime();
      List<HandlerListener<T>> syncing = new ArrayList<>();
      for (HandlerListener<T> listener : listeners) {
        Duration period = listener.resyncPeriod();
        if (!period.isZero() && now - listener.nextResyncNanos() >= 0) {
          syncing.add(listener);
          listener.nextResyncNanos(now + period.toNanos());
        }
      }
      syncingListeners = List.copyOf(syncing);
      due = !syncing.isEmpty();
      scheduleResyncLocked();
    }
    if (due) {
      // Outside handlersLock: the FIFO lock comes first in the lock order.
      fifo.resync();
    }
  }

  private static <T extends HasMetadata> UnaryOperator<T> typedTransform(
      Class<T> type, UnaryOperator<HasMetadata> transform) {
    return obj -> {
      HasMetadata result = transform.apply(obj);
      if (!type.isInstance(result)) {
        throw new IllegalStateException(
            "transform must return a "
                + type.getName()
                + ", returned "
                + (result == null ? "null" : result.getClass().getName()));
      }
      return type.cast(result);
    };
  }
}
