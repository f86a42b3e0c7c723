package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.Deletions;
import io.podset.testkit.internal.write.ObjectWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The garbage collector and namespace controller, run synchronously after each commit (nested
 * writes under the store lock, as Kubernetes' controllers would do a moment later):
 *
 * <ul>
 *   <li>an object whose owners are all absent is deleted (Background, or as its own {@code
 *       orphan}/{@code foregroundDeletion} finalizer says); an owner reference to another
 *       namespace, or from a cluster-scoped object to a namespaced one, counts as absent; when some
 *       owners remain, references to absent owners and to owners deleted in the foreground are
 *       removed;
 *   <li>an owner deleted in the foreground ({@code foregroundDeletion} finalizer) has its
 *       dependents deleted and loses the finalizer once no dependent with {@code
 *       blockOwnerDeletion} remains;
 *   <li>an owner deleted with {@code Orphan} ({@code orphan} finalizer) has its references removed
 *       from every dependent, then loses the finalizer;
 *   <li>a namespace being deleted ({@code Terminating}) has its contents deleted and goes once it
 *       is empty.
 * </ul>
 *
 * <p>Its indexes are guarded by the store's lock: it is only called from commits.
 */
public final class GarbageCollector implements ObjectStore.CommitListener {

  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final ObjectWrites writes;
  // Guarded by the store lock.
  private final OwnerIndex owners = new OwnerIndex();
  private final NamespaceTermination namespaces;

  public GarbageCollector(ObjectStore store, ResourceRegistry registry, ObjectWrites writes) {
    this.store = Objects.requireNonNull(store, "store");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.namespaces = new NamespaceTermination(store, registry, writes);
  }

  @Override
  public void committed(StoredEvent event) {
    OwnerIndex.Location here = new OwnerIndex.Location(event.storageKey(), event.key());
    ObjectNode object = event.type() == StoredEvent.Type.DELETED ? null : event.object();
    ObjectNode previous = event.previous();
    owners.index(here, previous, object);
    if (object == null) {
      ownerGone(uid(previous));
      owners.ownersToRecheck(previous).forEach(this::processDeletingOwner);
      String namespace = Json.namespace(previous);
      if (namespace != null) {
        namespaces.process(namespace);
      }
      return;
    }
    if (Deletions.deleting(object)) {
      Set<String> finalizers = Deletions.finalizers(object);
      if (finalizers.contains(Deletions.ORPHAN) || finalizers.contains(Deletions.FOREGROUND)) {
        processDeletingOwner(uid(object));
      }
      if (event.storageKey().equals(NamespaceTermination.NAMESPACES)
          && !Deletions.deleting(previous)) {
        namespaces.process(Json.name(object));
      }
    }
    if (previous != null && !OwnerIndex.refUids(previous).equals(OwnerIndex.refUids(object))) {
      owners.ownersToRecheck(previous).forEach(this::processDeletingOwner);
    }
    if (!object.path("metadata").path("ownerReferences").isEmpty()) {
      processDependent(here);
    }
  }

  private void ownerGone(String uid) {
    owners.dependents(uid).forEach(this::processDependent);
  }

  /** Deletes a dependent whose owners are gone, or drops its references to absent owners. */
  private void processDependent(OwnerIndex.Location location) {
    ObjectNode object = store.get(location.storageKey(), location.key());
    if (object == null || object.path("metadata").path("ownerReferences").isEmpty()) {
      return;
    }
    String namespace = Json.namespace(object);
    List<String> solid = new ArrayList<>();
    List<String> removable = new ArrayList<>();
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      String uid = ref.path("uid").asText();
      ObjectNode owner = owner(uid, namespace);
      if (owner == null) {
        removable.add(uid);
      } else if (Deletions.deleting(owner)
          && Deletions.finalizers(owner).contains(Deletions.FOREGROUND)) {
        removable.add(uid);
      } else {
        solid.add(uid);
      }
    }
    if (!solid.isEmpty()) {
      if (!removable.isEmpty()) {
        removeReferences(location, Set.copyOf(removable));
      }
      return;
    }
    if (Deletions.deleting(object)) {
      return;
    }
    ResourceType type = typeOf(location.storageKey());
    if (type == null) {
      return;
    }
    Set<String> own = Deletions.finalizers(object);
    String policy = "Background";
    if (own.contains(Deletions.ORPHAN)) {
      policy = "Orphan";
    } else if (own.contains(Deletions.FOREGROUND) || owners.hasDependents(uid(object))) {
      policy = waitingOwner(object) ? "Foreground" : "Background";
    }
    writes.deleteObject(type, location.key(), new DeleteOptions(null, policy, null, null, false));
  }

  /** Whether one of the object's owners is being deleted in the foreground. */
  private boolean waitingOwner(ObjectNode object) {
    for (String uid : OwnerIndex.refUids(object)) {
      ObjectNode owner = owner(uid, Json.namespace(object));
      if (owner != null && Deletions.finalizers(owner).contains(Deletions.FOREGROUND)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The owner with {@code uid} as seen from a dependent in {@code namespace} (null when
   * cluster-scoped), or null when it is absent or in another namespace.
   */
  private ObjectNode owner(String uid, String namespace) {
    OwnerIndex.Location location = owners.location(uid);
    if (location == null) {
      return null;
    }
    ObjectNode owner = store.get(location.storageKey(), location.key());
    if (owner == null) {
      return null;
    }
    String ownerNamespace = Json.namespace(owner);
    if (ownerNamespace != null && !ownerNamespace.equals(namespace)) {
      return null;
    }
    return owner;
  }

  /** Foreground: deletes dependents, then drops the finalizer. Orphan: unlinks, then drops it. */
  private void processDeletingOwner(String uid) {
    OwnerIndex.Location location = owners.location(uid);
    if (location == null) {
      return;
    }
    ObjectNode owner = store.get(location.storageKey(), location.key());
    if (owner == null || !Deletions.deleting(owner)) {
      return;
    }
    Set<String> finalizers = Deletions.finalizers(owner);
    List<OwnerIndex.Location> deps = owners.dependents(uid);
    if (finalizers.contains(Deletions.ORPHAN)) {
      for (OwnerIndex.Location dependent : deps) {
        removeReferences(dependent, Set.of(uid));
      }
      removeFinalizer(location, uid, Deletions.ORPHAN);
      return;
    }
    if (!finalizers.contains(Deletions.FOREGROUND)) {
      return;
    }
    for (OwnerIndex.Location dependent : deps) {
      processDependent(dependent);
    }
    for (OwnerIndex.Location dependent : owners.dependents(uid)) {
      ObjectNode object = store.get(dependent.storageKey(), dependent.key());
      if (object != null && blocks(object, uid)) {
        return;
      }
    }
    removeFinalizer(location, uid, Deletions.FOREGROUND);
  }

  private static boolean blocks(JsonNode dependent, String ownerUid) {
    for (JsonNode ref : dependent.path("metadata").path("ownerReferences")) {
      if (ref.path("uid").asText().equals(ownerUid)
          && ref.path("blockOwnerDeletion").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }

  private void removeReferences(OwnerIndex.Location location, Set<String> ownerUids) {
    store.write(
        location.storageKey(),
        location.key(),
        current -> {
          if (current == null) {
            return null;
          }
          ObjectNode next = current.deepCopy();
          ObjectNode meta = Json.metadata(next);
          ArrayNode kept = Json.object().arrayNode();
          for (JsonNode ref : meta.path("ownerReferences")) {
            if (!ownerUids.contains(ref.path("uid").asText())) {
              kept.add(ref);
            }
          }
          if (kept.isEmpty()) {
            meta.remove("ownerReferences");
          } else {
            meta.set("ownerReferences", kept);
          }
          return next;
        });
  }

  private void removeFinalizer(OwnerIndex.Location location, String uid, String finalizer) {
    store.write(
        location.storageKey(),
        location.key(),
        current -> {
          if (current == null || !uid.equals(uid(current))) {
            return current;
          }
          ObjectNode next = current.deepCopy();
          ObjectNode meta = Json.metadata(next);
          ArrayNode kept = meta.arrayNode();
          for (JsonNode f : meta.path("finalizers")) {
            if (!f.asText().equals(finalizer)) {
              kept.add(f);
            }
          }
          if (kept.isEmpty()) {
            meta.remove("finalizers");
          } else {
            meta.set("finalizers", kept);
          }
          return Deletions.finished(next) ? null : next;
        });
  }

  private ResourceType typeOf(String storageKey) {
    for (ResourceType type : registry.all()) {
      if (type.storageKey().equals(storageKey)) {
        return type;
      }
    }
    return null;
  }

  private static String uid(JsonNode object) {
    return Json.text(object, "metadata.uid");
  }
}
