package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.admission.CustomResources;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import java.util.List;
import java.util.Objects;

/**
 * Serves custom resources as their definitions change: a created or updated CRD registers its
 * served versions at once (it is Established when the create returns); a deleted CRD stops being
 * served and its objects are deleted.
 */
public final class CrdController implements ObjectStore.CommitListener {

  private final ResourceRegistry registry;
  private final ObjectStore store;

  public CrdController(ResourceRegistry registry, ObjectStore store) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public void committed(StoredEvent event) {
    if (!event.storageKey().equals(ResourceRegistry.CRD_STORAGE)) {
      return;
    }
    if (event.type() == StoredEvent.Type.DELETED) {
      unregister(event.previous());
      deleteObjects(event.previous());
      return;
    }
    // The new versions (and their compiled CEL rules) are built before they replace the old.
    List<ResourceType> types = CustomResources.typesOf(event.object());
    if (event.previous() != null) {
      JsonNode previous = event.previous();
      registry.replace(previous.path("spec").path("group").asText(), plural(previous), types);
    } else {
      types.forEach(registry::register);
    }
  }

  private void unregister(JsonNode crd) {
    registry.unregister(crd.path("spec").path("group").asText(), plural(crd));
  }

  private static String plural(JsonNode crd) {
    return crd.path("spec").path("names").path("plural").asText();
  }

  private void deleteObjects(JsonNode crd) {
    String storageKey = crd.path("spec").path("group").asText() + "/" + plural(crd);
    for (ObjectNode object : store.list(storageKey, "", null).objects()) {
      String key = ObjectStore.key(Json.namespace(object), Json.name(object));
      store.write(storageKey, key, current -> null);
    }
  }
}
