package io.podset.runtime.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podset.runtime.informer.transport.ListerWatcher;
import io.podset.runtime.time.Clock;
import java.util.Objects;

/** Where a {@link SharedInformerFactory} gets its lister-watchers (fabric8, or a test double). */
interface ListerWatcherSource {

  <T extends HasMetadata> ListerWatcher<T> forType(Class<T> type, InformerOptions options);

  ListerWatcher<GenericKubernetesResource> forContext(
      ResourceDefinitionContext context, InformerOptions options);

  static ListerWatcherSource fabric8(KubernetesClient client, Clock clock) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(clock, "clock");
    return new ListerWatcherSource() {
      @Override
      public <T extends HasMetadata> ListerWatcher<T> forType(
          Class<T> type, InformerOptions options) {
        return ListerWatchers.forResource(client, type, options, clock);
      }

      @Override
      public ListerWatcher<GenericKubernetesResource> forContext(
          ResourceDefinitionContext context, InformerOptions options) {
        return ListerWatchers.forResource(client, context, options, clock);
      }
    };
  }
}
