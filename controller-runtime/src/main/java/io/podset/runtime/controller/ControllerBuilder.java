package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.podset.runtime.event.Event;
import io.podset.runtime.handler.EventHandler;
import io.podset.runtime.handler.EventHandlers;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.time.Clock;
import io.podset.runtime.workqueue.RateLimiter;
import io.podset.runtime.workqueue.RateLimiters;
import io.podset.runtime.workqueue.RateLimitingQueue;
import io.podset.runtime.workqueue.WorkQueues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link Controller}. Each method validates its argument at once and throws {@link
 * NullPointerException} or {@link IllegalArgumentException} naming it; {@link #build()} throws
 * {@link IllegalStateException} when a required part (name, primary resource, reconciler) is
 * missing or the name is taken.
 *
 * <p>Informers come from the shared factory (one per type and {@link InformerOptions}), so two
 * controllers watching pods share one cache and one watch.
 *
 * <p>Event filters, event handlers and mappers run on this controller's own handler thread of each
 * informer (a handler with its own buffer), so a slow one delays only this controller's events,
 * never the shared cache or other controllers. Keep them fast anyway: read caches, never call the
 * API server. {@link #inlineEventHandlers(boolean)} opts out of that isolation for less latency.
 */
public final class ControllerBuilder {

  /** Default time to wait for caches before {@link Controller#start()} fails. */
  public static final Duration DEFAULT_CACHE_SYNC_TIMEOUT = Duration.ofMinutes(2);

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final SharedInformerFactory informers;
  private final ControllerNames names;
  private @Nullable String name;
  private @Nullable Class<? extends HasMetadata> primaryType;
  private final List<Watch<?>> watches = new ArrayList<>();
  private Predicate<? super Event<? extends HasMetadata>> globalFilter = event -> true;
  private InformerOptions informerOptions = InformerOptions.defaults();
  private @Nullable Reconciler reconciler;
  private int workers = 1;
  private Duration cacheSyncTimeout = DEFAULT_CACHE_SYNC_TIMEOUT;
  private Clock clock = Clock.system();
  // Null until set: build() then gives the controller a registry of its own.
  private @Nullable MeterRegistry meterRegistry;
  private @Nullable RateLimiter<Request> rateLimiter;
  private boolean inlineEventHandlers;
  private @Nullable ReadYourWrites readYourWrites;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  ControllerBuilder(SharedInformerFactory informers, ControllerNames names) {
    this.informers = informers;
    this.names = names;
  }

  /**
   * The controller's name: unique among the controllers of this informer factory, lowercase
   * letters, digits and dashes (it tags metrics and names threads).
   */
  public ControllerBuilder named(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches() || name.length() > 63) {
      throw new IllegalArgumentException(
          "name must be a DNS-1123 label (lowercase letters, digits, '-'), got '" + name + "'");
    }
    this.name = name;
    return this;
  }

  /**
   * Options for the informers this builder creates (namespace, selectors, resync period,
   * transform). Set it before {@code forResource}/{@code owns}/{@code watches}.
   */
  public ControllerBuilder informerOptions(InformerOptions options) {
    this.informerOptions = Objects.requireNonNull(options, "options");
    return this;
  }

  /** The primary resource: each event enqueues the object itself. */
  public <P extends HasMetadata> ControllerBuilder forResource(Class<P> type) {
    return forResource(type, event -> true);
  }

  /** The primary resource, with a filter over its events. */
  public <P extends HasMetadata> ControllerBuilder forResource(
      Class<P> type, Predicate<? super Event<P>> filter) {
    Objects.requireNonNull(type, "type");
    if (primaryType != null) {
      throw new IllegalStateException(
          "primary resource already set to "
              + primaryType.getSimpleName()
              + ", got "
              + type.getSimpleName());
    }
    primaryType = type;
    return addWatch(
        informers.informerFor(type, informerOptions), filter, EventHandlers.forObject());
  }

  /**
   * A secondary resource this controller creates: each event enqueues the object's controller owner
   * if it is of the primary type. Call after {@link #forResource}.
   */
  public <S extends HasMetadata> ControllerBuilder owns(Class<S> type) {
    return owns(type, event -> true);
  }

  /** A secondary resource, with a filter over its events. */
  public <S extends HasMetadata> ControllerBuilder owns(
      Class<S> type, Predicate<? super Event<S>> filter) {
    Objects.requireNonNull(type, "type");
    if (primaryType == null) {
      throw new IllegalStateException(
          "call forResource(...) before owns(" + type.getSimpleName() + ")");
    }
    return addWatch(
        informers.informerFor(type, informerOptions),
        filter,
        EventHandlers.forControllerOwner(primaryType));
  }

  /** Any other resource: {@code mapper} names the requests an event on it enqueues. */
  public <T extends HasMetadata> ControllerBuilder watches(
      Class<T> type, Function<? super T, ? extends java.util.Collection<Request>> mapper) {
    Objects.requireNonNull(type, "type");
    return addWatch(
        informers.informerFor(type, informerOptions),
        event -> true,
        EventHandlers.fromMapper(mapper));
  }

  /** Any informer with a custom handler and filter. */
  public <T extends HasMetadata> ControllerBuilder watches(
      SharedInformer<T> informer, EventHandler<T> handler, Predicate<? super Event<T>> filter) {
    return addWatch(informer, filter, handler);
  }

  /** A filter applied to the events of every watch (combined with each watch's own filter). */
  public ControllerBuilder withEventFilter(Predicate<? super Event<? extends HasMetadata>> filter) {
    this.globalFilter = Objects.requireNonNull(filter, "filter");
    return this;
  }

  /** The reconciler called for each request. */
  public ControllerBuilder reconciler(Reconciler reconciler) {
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    return this;
  }

  /**
   * Number of worker threads (default 1); requests for different objects run in parallel.
   *
   * @throws IllegalArgumentException if {@code workers} is not between 1 and 1024
   */
  public ControllerBuilder workers(int workers) {
    if (workers < 1 || workers > 1024) {
      throw new IllegalArgumentException("workers must be between 1 and 1024, got " + workers);
    }
    this.workers = workers;
    return this;
  }

  /** How long {@link Controller#start()} waits for caches (default 2 minutes). */
  public ControllerBuilder cacheSyncTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("cacheSyncTimeout must be positive, got " + timeout);
    }
    this.cacheSyncTimeout = timeout;
    return this;
  }

  /** The retry backoff (default: max of per-request exponential 5 ms..1000 s and 10 qps/100). */
  public ControllerBuilder rateLimiter(RateLimiter<Request> rateLimiter) {
    this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
    return this;
  }

  /**
   * Whether this controller's event filters, handlers and mappers run {@linkplain
   * io.podset.runtime.informer.SharedInformer#addInlineEventHandler inline}, where each informer
   * applies a change to its cache (default false: on a handler thread of their own). Inline saves a
   * thread hand-off per event before the work queue, but a slow filter or mapper then delays the
   * shared cache, its watch and every other handler of that informer: only for filters and mappers
   * that are known to be fast and never block.
   */
  public ControllerBuilder inlineEventHandlers(boolean inline) {
    this.inlineEventHandlers = inline;
    return this;
  }

  /** The clock for delays and timings (default: the system clock). */
  public ControllerBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Where metrics go. A manager's builder sets the manager's registry (served on {@code /metrics});
   * without one, the controller's meters go to a registry of its own, never to Micrometer's global
   * one. A closed controller removes its meters, so a later one of the same name can register.
   */
  public ControllerBuilder meterRegistry(MeterRegistry registry) {
    this.meterRegistry = Objects.requireNonNull(registry, "registry");
    return this;
  }

  /**
   * Something the controller closes after its workers stopped, such as the reconciler's own thread
   * pool; closed in the order given. A failure to close is logged, not thrown.
   */
  public ControllerBuilder closing(AutoCloseable resource) {
    closeables.add(Objects.requireNonNull(resource, "resource"));
    return this;
  }

  /**
   * Holds back each request whose last reconcile recorded writes in {@code writes} until the caches
   * have observed them ({@link ReadYourWrites}), and re-queues it the moment they have. The barrier
   * serves this controller only: its timeout metric carries the controller's name.
   *
   * @throws NullPointerException if {@code writes} is null
   */
  public ControllerBuilder readYourWrites(ReadYourWrites writes) {
    this.readYourWrites = Objects.requireNonNull(writes, "writes");
    return this;
  }

  SharedInformerFactory informers() {
    return informers;
  }

  Clock clockValue() {
    return clock;
  }

  /** The registry metrics go to, created on first use when none was set. */
  MeterRegistry meterRegistryValue() {
    if (meterRegistry == null) {
      meterRegistry = new SimpleMeterRegistry();
    }
    return meterRegistry;
  }

  /**
   * Builds the controller; it watches nothing until {@link Controller#start()}.
   *
   * @throws IllegalStateException if the name, primary resource or reconciler is missing, or the
   *     name is already used by a controller of the same informer factory
   */
  public Controller build() {
    if (name == null) {
      throw new IllegalStateException("a controller needs a name: call named(...)");
    }
    if (primaryType == null) {
      throw new IllegalStateException("controller '" + name + "' needs forResource(...)");
    }
    if (reconciler == null) {
      throw new IllegalStateException("controller '" + name + "' needs a reconciler(...)");
    }
    if (readYourWrites != null) {
      readYourWrites.bind(name, meterRegistryValue());
    }
    names.claim(name);
    RateLimiter<Request> limiter =
        rateLimiter != null ? rateLimiter : RateLimiters.defaultControllerRateLimiter(clock);
    RateLimitingQueue<Request> queue =
        WorkQueues.<Request>builder()
            .name(name)
            .clock(clock)
            .rateLimiter(limiter)
            .meterRegistry(meterRegistryValue())
            .buildRateLimiting();
    String claimed = name;
    return new DefaultController(
        new Spec(
            claimed,
            watches,
            globalFilter,
            reconciler,
            queue,
            workers,
            cacheSyncTimeout,
            clock,
            meterRegistryValue(),
            inlineEventHandlers,
            readYourWrites == null ? null : readYourWrites.gate(),
            List.copyOf(closeables),
            () -> names.release(claimed)));
  }

  private <T extends HasMetadata> ControllerBuilder addWatch(
      SharedInformer<T> informer, Predicate<? super Event<T>> filter, EventHandler<T> handler) {
    Objects.requireNonNull(informer, "informer");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(handler, "handler");
    watches.add(new Watch<>(informer, filter, handler));
    return this;
  }

  /** Everything {@link DefaultController} needs, validated. */
  record Spec(
      String name,
      List<Watch<?>> watches,
      Predicate<? super Event<? extends HasMetadata>> globalFilter,
      Reconciler reconciler,
      RateLimitingQueue<Request> queue,
      int workers,
      Duration cacheSyncTimeout,
      Clock clock,
      MeterRegistry meterRegistry,
      boolean inlineEventHandlers,
      @Nullable ReconcileGate gate,
      List<AutoCloseable> closeables,
      Runnable onClose) {}
}
