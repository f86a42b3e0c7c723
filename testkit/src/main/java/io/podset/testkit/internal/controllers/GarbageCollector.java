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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

  /** Where one object lives. */
  private record Location(String storageKey, String key) {}

  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final ObjectWrites writes;
  // Guarded by the store lock: uid -> location of every stored object.
  private final Map<String, Location> byUid = new HashMap<>();
  // Guarded by the store lock: owner uid -> locations of the objects that reference it.
  private final Map<String, Set<Location>> dependents = new HashMap<>();

  public GarbageCollector(ObjectStore store, ResourceRegistry registry, ObjectWrites writes) {
    this.store = Objects.requireNonNull(store, "store");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  @Override
  public void committed(StoredEvent event) {
    Location here = new Location(event.storageKey(), event.key());
    ObjectNode object = event.type() == StoredEvent.Type.DELETED ? null : event.object();
    ObjectNode previous = event.previous();
    index(here, previous, object);
    if (object == null) {
      ownerGone(uid(previous));
      ownersToRecheck(previous).forEach(this::processDeletingOwner);
      String namespace = Json.namespace(previous);
      if (namespace != null) {
        processNamespace(namespace);
      }
      return;
    }
    if (Deletions.deleting(object)) {
      Set<String> finalizers = Deletions.finalizers(object);
      if (finalizers.contains(Deletions.ORPHAN) || finalizers.contains(Deletions.FOREGROUND)) {
        processDeletingOwner(uid(object));
      }
      if (event.storageKey().equals(NAMESPACES) && !Deletions.deleting(previous)) {
        processNamespace(Json.name(object));
      }
    }
    if (previous != null && !refUids(previous).equals(refUids(object))) {
      ownersToRecheck(previous).forEach(this::processDeletingOwner);
    }
    if (!object.path("metadata").path("ownerReferences").isEmpty()) {
      processDependent(here);
    }
  }

  static final String NAMESPACES = "/namespaces";

  private void index(Location here, ObjectNode previous, ObjectNode object) {
    if (previous != null) {
      for (String owner : refUids(previous)) {
        Set<Location> set = dependents.get(owner);
        if (set != null) {
          set.remove(here);
          if (set.isEmpty()) {
            dependents.remove(owner);
          }
        }
      }
      if (object == null) {
        byUid.remove(uid(previous));
      }
    }
    if (object != null) {
      byUid.put(uid(object), here);
      for (String owner : refUids(object)) {
        dependents.computeIfAbsent(owner, k -> new LinkedHashSet<>()).add(here);
      }
    }
  }

  private static Set<String> refUids(JsonNode object) {
    Set<String> uids = new LinkedHashSet<>();
    if (object != null) {
      for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
        uids.add(ref.path("uid").asText());
      }
    }
    return uids;
  }

  /** The owners of {@code object} that are being deleted and may wait for it. */
  private List<String> ownersToRecheck(JsonNode object) {
    List<String> owners = new ArrayList<>();
    for (String uid : refUids(object)) {
      if (byUid.containsKey(uid)) {
        owners.add(uid);
      }
    }
    return owners;
  }

  private void ownerGone(String uid) {
    Set<Location> set = dependents.get(uid);
    if (set != null) {
      List.copyOf(set).forEach(this::processDependent);
    }
  }

  /** Deletes a dependent whose owners are gone, or drops its references to absent owners. */
  private void processDependent(Location location) {
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
    } else if (own.contains(Deletions.FOREGROUND) || hasDependents(uid(object))) {
      policy = waitingOwner(object) ? "Foreground" : "Background";
    }
    writes.deleteObject(type, location.key(), new DeleteOptions(null, policy, null, null, false));
  }

  /** Whether one of the object's owners is being deleted in the foreground. */
  private boolean waitingOwner(ObjectNode object) {
    for (String uid : refUids(object)) {
      ObjectNode owner = owner(uid, Json.namespace(object));
      if (owner != null && Deletions.finalizers(owner).contains(Deletions.FOREGROUND)) {
        return true;
      }
    }
    return false;
  }

  private boolean hasDependents(String uid) {
    Set<Location> set = dependents.get(uid);
    return set != null && !set.isEmpty();
  }

  /**
   * The owner with {@code uid} as seen from a dependent in {@code namespace} (null when
   * cluster-scoped), or null when it is absent or in another namespace.
   */
  private ObjectNode owner(String uid, String namespace) {
    Location location = byUid.get(uid);
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
    Location location = byUid.get(uid);
    if (location == null) {
      return;
    }
    ObjectNode owner = store.get(location.storageKey(), location.key());
    if (owner == null || !Deletions.deleting(owner)) {
      return;
    }
    Set<String> finalizers = Deletions.finalizers(owner);
    List<Location> deps = List.copyOf(dependents.getOrDefault(uid, Set.of()));
    if (finalizers.contains(Deletions.ORPHAN)) {
      for (Location dependent : deps) {
        removeReferences(dependent, Set.of(uid));
      }
      removeFinalizer(location, uid, Deletions.ORPHAN);
      return;
    }
    if (!finalizers.contains(Deletions.FOREGROUND)) {
      return;
    }
    for (Location dependent : deps) {
      processDependent(dependent);
    }
    for (Location dependent : List.copyOf(dependents.getOrDefault(uid, Set.of()))) {
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

  private void removeReferences(Location location, Set<String> ownerUids) {
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

  private void removeFinalizer(Location location, String uid, String finalizer) {
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

  /** Deletes the contents of a terminating namespace; removes it once it is empty. */
  private void processNamespace(String name) {
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
