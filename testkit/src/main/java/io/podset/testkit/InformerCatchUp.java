package io.podset.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.store.FieldSelector;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether informers have seen every change the fake committed that their watches must
 * deliver: for each tracked informer, the newest revision of a change in its resource, namespace
 * and selectors (before or after the change) against the revision its cache has reached. Lets
 * {@link ReconcileHarness} tell "quiet" from "a watch event still on its way".
 */
final class InformerCatchUp implements ObjectStore.CommitListener {

  private record Tracked(
      SharedInformer<?> informer,
      String storageKey,
      @Nullable String namespace,
      LabelSelector labels,
      FieldSelector fields,
      AtomicLong newestRelevant) {

    boolean relevant(StoredEvent event) {
      if (!event.storageKey().equals(storageKey)) {
        return false;
      }
      if (namespace != null && !event.key().startsWith(namespace + "/")) {
        return false;
      }
      return matches(event.object()) || (event.previous() != null && matches(event.previous()));
    }

    private boolean matches(com.fasterxml.jackson.databind.JsonNode object) {
      return labels.matches(object) && fields.matches(object);
    }

    boolean caughtUp() {
      long newest = newestRelevant.get();
      if (newest == 0) {
        return true;
      }
      String observed = informer.lastObservedResourceVersion();
      return observed != null && Long.parseLong(observed) >= newest;
    }
  }

  private final ResourceRegistry registry;
  private final List<Tracked> tracked = new CopyOnWriteArrayList<>();

  InformerCatchUp(ResourceRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * Follows {@code informer} of a resource the fake serves ({@code group}, {@code version}, {@code
   * plural}); an informer of a resource the fake does not serve is not followed.
   */
  void track(
      SharedInformer<? extends HasMetadata> informer,
      String group,
      String version,
      String plural,
      InformerOptions options) {
    if (tracked.stream().anyMatch(t -> t.informer() == informer)) {
      return; // the factory shares one informer among equal requests
    }
    registry
        .find(group, version, plural)
        .ifPresent(
            type ->
                tracked.add(
                    new Tracked(
                        informer,
                        type.storageKey(),
                        options.namespace(),
                        LabelSelector.parse(options.labelSelector()),
                        FieldSelector.parse(options.fieldSelector(), type.fieldSelectors(), plural),
                        new AtomicLong())));
  }

  @Override
  public void committed(StoredEvent event) {
    for (Tracked t : tracked) {
      if (t.relevant(event)) {
        t.newestRelevant().accumulateAndGet(event.resourceVersion(), Math::max);
      }
    }
  }

  /** Whether every tracked informer's cache has every relevant change committed so far. */
  boolean caughtUp() {
    for (Tracked t : tracked) {
      if (!t.caughtUp()) {
        return false;
      }
    }
    return true;
  }
}
