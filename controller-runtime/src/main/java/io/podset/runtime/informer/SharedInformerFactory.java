package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Hands out one shared informer per (resource, namespace, label selector, field selector), so that
 * every controller watching the same objects shares one watch and one cache.
 *
 * <p>When an informer already exists for a key, its tuning (default resync, transform, streaming
 * list, page size) is the one it was created with; handlers still choose their own resync period.
 * Informers created after {@link #startAll()} are started at once. Thread-safe.
 */
public interface SharedInformerFactory extends AutoCloseable {

  /** A factory listing and watching through {@code client}, on the system clock. */
  static SharedInformerFactory create(KubernetesClient client) {
    return create(client, Clock.system());
  }

  /** A factory listing and watching through {@code client}, timing with {@code clock}. */
  static SharedInformerFactory create(KubernetesClient client, Clock clock) {
    return new DefaultSharedInformerFactory(
        ListerWatcherSource.fabric8(client, clock), clock, null);
  }

  /**
   * A factory listing and watching through {@code client}, timing with {@code clock}, whose
   * informers publish the {@code informer_*} meters in {@code registry} (see {@link
   * SharedInformers#create(Class, ListerWatcher, InformerOptions, Clock, MeterRegistry)}).
   */
  static SharedInformerFactory create(
      KubernetesClient client, Clock clock, MeterRegistry registry) {
    return new DefaultSharedInformerFactory(
        ListerWatcherSource.fabric8(client, clock),
        clock,
        Objects.requireNonNull(registry, "registry"));
  }

  /**
   * The shared informer for a typed resource with these options.
   *
   * @throws IllegalStateException if the factory is closed
   * @throws IllegalArgumentException if a namespace is given for a cluster-scoped type
   */
  <T extends HasMetadata> SharedInformer<T> informerFor(Class<T> type, InformerOptions options);

  /** The shared informer for a typed resource in all namespaces, with default options. */
  default <T extends HasMetadata> SharedInformer<T> informerFor(Class<T> type) {
    return informerFor(type, InformerOptions.defaults());
  }

  /**
   * The shared informer for any resource, as {@link GenericKubernetesResource}s.
   *
   * @throws IllegalStateException if the factory is closed
   */
  SharedInformer<GenericKubernetesResource> informerFor(
      ResourceDefinitionContext context, InformerOptions options);

  /**
   * Starts every informer not started yet (and, from now on, each new one).
   *
   * @return a future completed when all informers created so far have synced
   */
  CompletableFuture<Void> startAll();

  /**
   * Waits (in real time) until every informer created so far has synced.
   *
   * @return whether all synced within the timeout
   */
  boolean waitForCacheSync(Duration timeout);

  /** The informers created so far. */
  List<SharedInformer<?>> informers();

  /** Closes every informer; idempotent. */
  @Override
  void close();
}
