package io.podset.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.runtime.client.ObjectWriter;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.status.StatusWriter;
import io.podset.runtime.time.Clock;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What every reconcile context of one typed controller shares: the client and writers, the
 * informers of the watched types (and which of them are owned), the field manager and the clock.
 */
record ControllerResources<P extends HasMetadata>(
    String controller,
    Class<P> primaryType,
    SharedInformer<P> primaries,
    Map<Class<?>, SharedInformer<?>> watched,
    Set<Class<?>> owned,
    KubernetesClient client,
    ObjectWriter writer,
    StatusWriter statuses,
    EventRecorder events,
    Clock clock,
    String fieldManager) {

  /**
   * The primary {@code namespace}/{@code name} (null namespace for a cluster-scoped type) as the
   * server has it now: one GET, null when it is gone.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if the read failed
   */
  @Nullable P livePrimary(@Nullable String namespace, String name) {
    var primaries = client.resources(primaryType);
    return namespace == null
        ? primaries.withName(name).get()
        : primaries.inNamespace(namespace).withName(name).get();
  }

  KubernetesSerialization serialization() {
    return client.getKubernetesSerialization();
  }

  /** The informer of {@code type}, which the controller must watch. */
  @SuppressWarnings("unchecked")
  <S extends HasMetadata> SharedInformer<S> informer(Class<S> type, String use) {
    SharedInformer<?> informer = type == primaryType ? primaries : watched.get(type);
    if (informer == null) {
      throw new IllegalArgumentException(
          "controller '"
              + controller
              + "' does not watch "
              + type.getSimpleName()
              + ", needed for "
              + use
              + ": add owns("
              + type.getSimpleName()
              + ".class) to its builder");
    }
    return (SharedInformer<S>) informer;
  }

  /** The informer of an owned {@code type}. */
  <S extends HasMetadata> SharedInformer<S> ownedInformer(Class<S> type, String use) {
    SharedInformer<S> informer = informer(type, use);
    if (!owned.contains(type)) {
      throw new IllegalArgumentException(
          "controller '"
              + controller
              + "' watches "
              + type.getSimpleName()
              + " but does not own it, needed for "
              + use
              + ": use owns("
              + type.getSimpleName()
              + ".class) instead of watches(...)");
    }
    return informer;
  }
}
