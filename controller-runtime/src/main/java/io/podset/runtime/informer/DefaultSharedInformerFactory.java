package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** The {@link SharedInformerFactory}: a map from informer key to informer. */
final class DefaultSharedInformerFactory implements SharedInformerFactory {

  /** Identity of a shared informer: the resource and what selects its objects. */
  private record Key(
      String resource,
      @Nullable String namespace,
      @Nullable String labelSelector,
      @Nullable String fieldSelector) {
    static Key of(String resource, InformerOptions options) {
      return new Key(
          resource, options.namespace(), options.labelSelector(), options.fieldSelector());
    }
  }

  private final ListerWatcherSource source;
  private final Clock clock;
  // Null: informers publish no meters.
  private final @Nullable MeterRegistry registry;

  private final Object lock = new Object();
  // All guarded by lock; informers keep creation order.
  private final Map<Key, SharedInformer<?>> informers = new LinkedHashMap<>();
  private boolean started;
  private boolean closed;

  DefaultSharedInformerFactory(ListerWatcherSource source, Clock clock) {
    this(source, clock, null);
  }

  DefaultSharedInformerFactory(
      ListerWatcherSource source, Clock clock, @Nullable MeterRegistry registry) {
    this.source = Objects.requireNonNull(source, "source");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.registry = registry;
  }

  @Override
  public <T extends HasMetadata> SharedInformer<T> informerFor(
      Class<T> type, InformerOptions options) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(options, "options");
    SharedInformer<?> informer =
        getOrCreate(
            Key.of(type.getName(), options),
            () ->
                SharedInformers.create(
                    type,
                    source.forType(type, options),
                    options,
                    clock,
                    SharedInformers.reflectorConfig(options),
                    registry));
    return cast(informer, type);
  }

  @Override
  public SharedInformer<GenericKubernetesResource> informerFor(
      ResourceDefinitionContext context, InformerOptions options) {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(options, "options");
    String resource =
        "generic:" + context.getGroup() + "/" + context.getVersion() + "/" + context.getPlural();
    SharedInformer<?> informer =
        getOrCreate(
            Key.of(resource, options),
            () ->
                SharedInformers.create(
                    GenericKubernetesResource.class,
                    source.forContext(context, options),
                    options,
                    clock,
                    SharedInformers.reflectorConfig(options),
                    registry));
    return cast(informer, GenericKubernetesResource.class);
  }

  private SharedInformer<?> getOrCreate(Key key, Supplier<SharedInformer<?>> create) {
    SharedInformer<?> informer;
    boolean start;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("informer factory is closed");
      }
      SharedInformer<?> existing = informers.get(key);
      if (existing != null) {
        return existing;
      }
      informer = create.get();
      informers.put(key, informer);
      start = started;
    }
    if (start) {
      informer.start();
    }
    return informer;
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> SharedInformer<T> cast(
      SharedInformer<?> informer, Class<T> type) {
    if (informer.type() != type) {
      throw new IllegalStateException(
          "informer for " + type.getName() + " holds " + informer.type().getName());
    }
    return (SharedInformer<T>) informer;
  }

  @Override
  public CompletableFuture<Void> startAll() {
    List<SharedInformer<?>> all;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("informer factory is closed");
      }
      started = true;
      all = List.copyOf(informers.values());
    }
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (SharedInformer<?> informer : all) {
      syncs.add(informer.start());
    }
    return CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new));
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    for (SharedInformer<?> informer : informers()) {
      long left = Math.max(0, deadline - System.nanoTime());
      if (!informer.waitForCacheSync(Duration.ofNanos(left))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public List<SharedInformer<?>> informers() {
    synchronized (lock) {
      return List.copyOf(informers.values());
    }
  }

  @Override
  public void close() {
    List<SharedInformer<?>> all;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      all = List.copyOf(informers.values());
    }
    for (SharedInformer<?> informer : all) {
      informer.close();
    }
  }

  @Override
  public String toString() {
    return "SharedInformerFactory" + informers();
  }
}
