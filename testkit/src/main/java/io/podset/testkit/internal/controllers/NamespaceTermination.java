package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.Deletions;
import io.podset.testkit.internal.write.ObjectWrites;
import java.util.Objects;

/**
 * The namespace controller's part: a terminating namespace has its contents deleted and is removed
 * once it is empty and has no finalizers left. Runs from the garbage collector's commits, under the
 * store's lock.
 */
final class NamespaceTermination {

  static final String NAMESPACES = "/namespaces";

  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final ObjectWrites writes;

  NamespaceTermination(ObjectStore store, ResourceRegistry registry, ObjectWrites writes) {
    this.store = Objects.requireNonNull(store, "store");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  /** Deletes the contents of a terminating namespace; removes it once it is empty. */
  void process(String name) {
    ObjectNode namespace = store.get(NAMESPACES, name);
    if (namespace == null || !Deletions.deleting(namespace)) {
      return;
    }
    boolean empty = true;
    for (ResourceType type : registry.all()) {
      if (!type.namespaced()) {
        continue;
      }
      for (ObjectNode object : store.list(type.storageKey(), name + "/", null).objects()) {
        empty = false;
        if (!Deletions.deleting(object)) {
          writes.deleteObject(type, ObjectStore.key(name, Json.name(object)), DeleteOptions.NONE);
        }
      }
    }
    if (!empty && !contentsGone(name)) {
      return;
    }
    store.write(
        NAMESPACES,
        name,
        current ->
            current != null
                    && Deletions.deleting(current)
                    && Deletions.finalizers(current).isEmpty()
                ? null
                : current);
  }

  private boolean contentsGone(String namespace) {
    for (ResourceType type : registry.all()) {
      if (type.namespaced()
          && !store.list(type.storageKey(), namespace + "/", null).objects().isEmpty()) {
        return false;
      }
    }
    return true;
  }
}
