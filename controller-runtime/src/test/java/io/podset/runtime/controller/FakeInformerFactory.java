package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Hands out one {@link FakeInformer} per type. */
final class FakeInformerFactory implements SharedInformerFactory {

  private final Map<Class<?>, FakeInformer<?>> informers = new LinkedHashMap<>();

  synchronized <T extends HasMetadata> FakeInformer<T> fake(Class<T> type) {
    @SuppressWarnings("unchecked")
    FakeInformer<T> informer =
        (FakeInformer<T>) informers.computeIfAbsent(type, t -> new FakeInformer<>(type));
    return informer;
  }

  @Override
  public <T extends HasMetadata> SharedInformer<T> informerFor(
      Class<T> type, InformerOptions options) {
    return fake(type);
  }

  @Override
  public SharedInformer<GenericKubernetesResource> informerFor(
      ResourceDefinitionContext resource, InformerOptions options) {
    throw new UnsupportedOperationException("generic resources are not used by these tests");
  }

  @Override
  public CompletableFuture<Void> startAll() {
    return CompletableFuture.allOf(
        informers.values().stream().map(FakeInformer::start).toArray(CompletableFuture[]::new));
  }

  @Override
  public boolean waitForCacheSync(Duration timeout) {
    return informers.values().stream().allMatch(FakeInformer::hasSynced);
  }

  @Override
  public synchronized List<SharedInformer<?>> informers() {
    return new ArrayList<>(informers.values());
  }

  @Override
  public void close() {}
}
