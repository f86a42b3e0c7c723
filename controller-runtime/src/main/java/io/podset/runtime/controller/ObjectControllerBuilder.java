package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.cache.Indexers;
import io.podset.runtime.client.ObjectWriter;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.CacheVersion;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.predicate.Predicates;
import io.podset.runtime.reconcile.Cleanup;
import io.podset.runtime.reconcile.ObjectReconciler;
import io.podset.runtime.reconcile.Request;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.status.StatusWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Builds a typed controller for primary objects of type {@code P}, read like a sentence:
 *
 * <pre>{@code
 * manager.controllerFor(Website.class)
 *     .owns(Deployment.class)
 *     .cleanup(this::cleanup)
 *     .reconcile(this::reconcile);
 * }</pre>
 *
 * <p>The reconciler gets the cached primary and a {@link io.podset.runtime.reconcile.Context}; see
 * {@link ObjectReconciler} for what is guaranteed (read-your-writes above all) and {@link Cleanup}
 * for the finalizer workflow. Informers, clock and metrics come from the manager, which also starts
 * and closes the controller.
 *
 * <p>Defaults: named after the kind in lower case; one worker; primary updates that changed only
 * the status are ignored ({@link Predicates#notStatusOnly()}); the field manager is the
 * controller's name; the finalizer (with a cleanup) is {@code <plural>.<group>/finalizer};
 * read-your-writes waits up to {@value #DEFAULT_READ_YOUR_WRITES_TIMEOUT_SECONDS} s.
 *
 * <p>Each method validates its argument at once and throws {@link NullPointerException} or {@link
 * IllegalArgumentException} naming it.
 *
 * @param <P> the primary type
 */
public final class ObjectControllerBuilder<P extends HasMetadata> {

  /** The annotation on applied objects holding the hash of the fields last applied. */
  public static final String APPLIED_ANNOTATION = AppliedObjects.ANNOTATION;

  static final long DEFAULT_READ_YOUR_WRITES_TIMEOUT_SECONDS = 5;

  /** How long a reconcile waits, at most, for the caches to show the previous one's writes. */
  public static final Duration DEFAULT_READ_YOUR_WRITES_TIMEOUT =
      Duration.ofSeconds(DEFAULT_READ_YOUR_WRITES_TIMEOUT_SECONDS);

  private final Class<P> type;
  private final KubernetesClient client;
  private final EventRecorder events;
  private final Supplier<ControllerBuilder> controllers;
  private final Consumer<Supplier<Controller>> registrar;
  private @Nullable String name;
  private InformerOptions informerOptions = InformerOptions.defaults();
  private Predicate<? super Event<P>> filter = Predicates.notStatusOnly()::test;
  private final Map<Class<? extends HasMetadata>, Predicate<?>> owned = new LinkedHashMap<>();
  private final List<MappedWatch<?>> mapped = new ArrayList<>();
  private int workers = 1;
  private @Nullable Cleanup<P> cleanup;
  private @Nullable String finalizer;
  private @Nullable String fieldManager;
  private Duration readYourWritesTimeout = DEFAULT_READ_YOUR_WRITES_TIMEOUT;
  private boolean registered;

  private record MappedWatch<T extends HasMetadata>(
      Class<T> type, Function<? super T, ? extends Collection<Request>> mapper) {}

  private ObjectControllerBuilder(
      Class<P> type,
      KubernetesClient client,
      EventRecorder events,
      Supplier<ControllerBuilder> controllers,
      Consumer<Supplier<Controller>> registrar) {
    this.type = type;
    this.client = client;
    this.events = events;
    this.controllers = controllers;
    this.registrar = registrar;
  }

  /**
   * A builder whose controllers are built by {@code controllers} (a fresh base builder each time,
   * carrying the informer factory, clock and metrics) and handed to {@code registrar}, which builds
   * one per leadership term. Managers call this; operator code uses {@code
   * Manager.controllerFor(type)}.
   */
  public static <P extends HasMetadata> ObjectControllerBuilder<P> create(
      Class<P> type,
      KubernetesClient client,
      EventRecorder events,
      Supplier<ControllerBuilder> controllers,
      Consumer<Supplier<Controller>> registrar) {
    return new ObjectControllerBuilder<>(
        Objects.requireNonNull(type, "type"),
        Objects.requireNonNull(client, "client"),
        Objects.requireNonNull(events, "events"),
        Objects.requireNonNull(controllers, "controllers"),
        Objects.requireNonNull(registrar, "registrar"));
  }

  /**
   * The controller's name (default: the kind in lower case); see {@link ControllerBuilder#named}.
   */
  public ObjectControllerBuilder<P> named(String name) {
    Objects.requireNonNull(name, "name");
    controllers.get().named(name); // validates
    this.name = name;
    return this;
  }

  /** Options for every informer of this controller, e.g. one namespace or a label selector. */
  public ObjectControllerBuilder<P> informerOptions(InformerOptions options) {
    this.informerOptions = Objects.requireNonNull(options, "options");
    return this;
  }

  /**
   * Which events of the primary reconcile it (default {@link Predicates#notStatusOnly()}: not the
   * echo of a status write). {@code Predicates.all()} reconciles on every change.
   */
  public ObjectControllerBuilder<P> filter(Predicate<? super Event<P>> filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
    return this;
  }

  /**
   * A type this controller creates: events on objects the primary controls reconcile the primary,
   * and the context's {@code owned}, {@code apply}, {@code create} and {@code delete} work on it.
   */
  public <S extends HasMetadata> ObjectControllerBuilder<P> owns(Class<S> ownedType) {
    return owns(ownedType, event -> true);
  }

  /** An owned type, with a filter over its events. */
  public <S extends HasMetadata> ObjectControllerBuilder<P> owns(
      Class<S> ownedType, Predicate<? super Event<S>> filter) {
    Objects.requireNonNull(ownedType, "ownedType");
    Objects.requireNonNull(filter, "filter");
    if (ownedType == type) {
      throw new IllegalArgumentException(type.getSimpleName() + " cannot own itself");
    }
    owned.put(ownedType, filter);
    return this;
  }

  /** Any other type: {@code mapper} names the primaries an event on it reconciles. */
  public <T extends HasMetadata> ObjectControllerBuilder<P> watches(
      Class<T> watchedType, Function<? super T, ? extends Collection<Request>> mapper) {
    Objects.requireNonNull(watchedType, "watchedType");
    Objects.requireNonNull(mapper, "mapper");
    mapped.add(new MappedWatch<>(watchedType, mapper));
    return this;
  }

  /** Worker threads (default 1); see {@link ControllerBuilder#workers}. */
  public ObjectControllerBuilder<P> workers(int workers) {
    controllers.get().workers(workers); // validates
    this.workers = workers;
    return this;
  }

  /**
   * Runs {@code cleanup} before a primary goes away, guarded by a finalizer the controller adds and
   * removes; see {@link Cleanup} for the guarantees.
   */
  public ObjectControllerBuilder<P> cleanup(Cleanup<P> cleanup) {
    this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
    return this;
  }

  /**
   * The finalizer name (default {@code <plural>.<group>/finalizer}).
   *
   * @throws IllegalArgumentException if it is not a qualified name like {@code example.com/x}
   */
  public ObjectControllerBuilder<P> finalizer(String finalizer) {
    Objects.requireNonNull(finalizer, "finalizer");
    if (!HasMetadata.validateFinalizer(finalizer)) {
      throw new IllegalArgumentException(
          "finalizer must be a qualified name like 'example.com/cleanup', got '" + finalizer + "'");
    }
    this.finalizer = finalizer;
    return this;
  }

  /** The server-side apply field manager (default: the controller's name). */
  public ObjectControllerBuilder<P> fieldManager(String fieldManager) {
    Objects.requireNonNull(fieldManager, "fieldManager");
    if (fieldManager.isBlank() || fieldManager.length() > 128) {
      throw new IllegalArgumentException(
          "fieldManager must be 1 to 128 characters, got '" + fieldManager + "'");
    }
    this.fieldManager = fieldManager;
    return this;
  }

  /**
   * How long a reconcile waits, at most, for the caches to show the writes of the previous
   * reconcile of the same object (default 5 s).
   *
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public ObjectControllerBuilder<P> readYourWritesTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("readYourWritesTimeout must be positive, got " + timeout);
    }
    this.readYourWritesTimeout = timeout;
    return this;
  }

  /**
   * Registers the controller with {@code reconciler}; it runs once the manager starts (and leads).
   *
   * @throws IllegalStateException if this builder already registered a controller
   */
  public void reconcile(ObjectReconciler<P> reconciler) {
    Objects.requireNonNull(reconciler, "reconciler");
    if (registered) {
      throw new IllegalStateException("reconcile(...) was already called on this builder");
    }
    registered = true;
    Settings<P> settings = new Settings<>(this, reconciler);
    registrar.accept(settings::build);
  }

  /** A snapshot of the builder, so later changes to it do not leak into built controllers. */
  private static final class Settings<P extends HasMetadata> {
    private final ObjectControllerBuilder<P> builder;
    private final String name;
    private final InformerOptions informerOptions;
    private final Predicate<? super Event<P>> filter;
    private final Map<Class<? extends HasMetadata>, Predicate<?>> owned;
    private final List<MappedWatch<?>> mapped;
    private final int workers;
    private final @Nullable Cleanup<P> cleanup;
    private final String finalizer;
    private final String fieldManager;
    private final Duration readYourWritesTimeout;
    private final ObjectReconciler<P> reconciler;

    Settings(ObjectControllerBuilder<P> b, ObjectReconciler<P> reconciler) {
      this.builder = b;
      this.name = b.name != null ? b.name : HasMetadata.getKind(b.type).toLowerCase(Locale.ROOT);
      this.informerOptions = b.informerOptions;
      this.filter = b.filter;
      this.owned = new LinkedHashMap<>(b.owned);
      this.mapped = List.copyOf(b.mapped);
      this.workers = b.workers;
      this.cleanup = b.cleanup;
      this.finalizer =
          b.finalizer != null
              ? b.finalizer
              : HasMetadata.getFullResourceName(b.type) + "/finalizer";
      this.fieldManager = b.fieldManager != null ? b.fieldManager : name;
      this.readYourWritesTimeout = b.readYourWritesTimeout;
      this.reconciler = reconciler;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    Controller build() {
      ControllerBuilder base =
          builder.controllers.get().named(name).informerOptions(informerOptions).workers(workers);
      SharedInformerFactory informers = base.informers();
      base.forResource(builder.type, filter);
      Map<Class<?>, SharedInformer<?>> watched = new LinkedHashMap<>();
      Set<Class<?>> ownedTypes = new HashSet<>();
      for (Map.Entry<Class<? extends HasMetadata>, Predicate<?>> entry : owned.entrySet()) {
        SharedInformer<? extends HasMetadata> informer =
            informers.informerFor(entry.getKey(), informerOptions);
        if (!informer.indexer().indexNames().contains(Indexers.CONTROLLER_UID)) {
          ((SharedInformer) informer)
              .addIndexers(Map.of(Indexers.CONTROLLER_UID, Indexers.byControllerUid()));
        }
        base.owns((Class) entry.getKey(), (Predicate) entry.getValue());
        watched.put(entry.getKey(), informer);
        ownedTypes.add(entry.getKey());
      }
      for (MappedWatch<?> watch : mapped) {
        base.watches((Class) watch.type(), (Function) watch.mapper());
        watched.putIfAbsent(watch.type(), informers.informerFor(watch.type(), informerOptions));
      }
      ReadYourWrites readYourWrites =
          ReadYourWrites.create(base.clockValue(), readYourWritesTimeout);
      ControllerResources<P> resources =
          new ControllerResources<>(
              name,
              builder.type,
              informers.informerFor(builder.type, informerOptions),
              watched,
              ownedTypes,
              builder.client,
              ObjectWriter.of(builder.client),
              StatusWriter.of(builder.client),
              builder.events,
              base.clockValue(),
              fieldManager);
      SharedInformer<P> primaries = resources.primaries();
      List<CacheVersion> caches = new ArrayList<>();
      caches.add(primaries);
      caches.addAll(watched.values());
      RecentFaults faults =
          RecentFaults.create(
              base.clockValue(),
              RecentFaults.DEFAULT_WINDOW,
              RecentFaults.DEFAULT_TOLERANCE,
              RecentFaults.DEFAULT_SILENCE,
              primaries,
              caches);
      return base.reconciler(
              new ObjectReconcile<>(
                  resources, reconciler, cleanup, finalizer, readYourWrites, faults))
          .readYourWrites(readYourWrites)
          .build();
    }
  }
}
