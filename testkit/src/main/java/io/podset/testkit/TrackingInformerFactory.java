package io.podset.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/** A factory that hands every informer it creates to an {@link InformerCatchUp} as well. */
final class TrackingInformerFactory implements SharedInformerFactory {

  private final SharedInformerFactory delegate;
  private final InformerCatchUp catchUp;

  TrackingInformerFactory(SharedInformerFactory delegate, InformerCatchUp catchUp) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.catchUp = Objects.requireNonNull(catchUp, "catchUp");
  }

  @Override
  public <T extends HasMetadata> SharedInformer<T> informerFor(
      Class<T> type, InformerOptions options) {
    SharedInformer<T> informer = delegate.informerFor(type, options);
    catchUp.track(
        informer,
        HasMetadata.getGroup(type),
        HasMetadata.getVersion(type),
        HasMetadata.getPlural(type),
        options);
    return informer;
  }

  @Override
  public SharedInformer<GenericKubernetesResource> informerFor(
      ResourceDefinitionContext context, InformerOptions options) {
    SharedInformer<GenericKubernetesResource> informer = delegate.informerFor(context, options);
    catchUp.track(
        informer,
        context.getGroup() == null ? "" : context.getGroup(),
        context.getVersion(),
        context.getPlural(),
        options);
    return informer;
  }

  @Override
  public CompletableFuture<Void> startAll() {
    return delegate.startAll();
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) {
    return delegate.waitForCacheSync(timeout);
  }

  @Override
  public List<SharedInformer<?>> informers() {
    return delegate.informers();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
