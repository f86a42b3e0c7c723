package io.podset.testkit.internal.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The garbage collector's view of owner references: where each stored object lives by uid, and
 * which objects reference each owner uid. Not thread-safe: guarded by the store's lock (it is only
 * updated from commits).
 */
final class OwnerIndex {

  /** Where one object lives. */
  record Location(String storageKey, String key) {}

  // uid -> location of every stored object.
  private final Map<String, Location> byUid = new HashMap<>();
  // owner uid -> locations of the objects that reference it.
  private final Map<String, Set<Location>> dependents = new HashMap<>();

  /** Where the object with {@code uid} lives, or null. */
  Location location(String uid) {
    return byUid.get(uid);
  }

  /** The objects that reference the owner {@code uid} (a copy). */
  List<Location> dependents(String uid) {
    return List.copyOf(dependents.getOrDefault(uid, Set.of()));
  }

  /** Updates the index for a change at {@code here} from {@code previous} to {@code object}. */
  void index(Location here, ObjectNode previous, ObjectNode object) {
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

  static Set<String> refUids(JsonNode object) {
    Set<String> uids = new LinkedHashSet<>();
    if (object != null) {
      for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
        uids.add(ref.path("uid").asText());
      }
    }
    return uids;
  }

  /** The owners of {@code object} that are being deleted and may wait for it. */
  List<String> ownersToRecheck(JsonNode object) {
    List<String> owners = new ArrayList<>();
    for (String uid : refUids(object)) {
      if (byUid.containsKey(uid)) {
        owners.add(uid);
      }
    }
    return owners;
  }

  boolean hasDependents(String uid) {
    Set<Location> set = dependents.get(uid);
    return set != null && !set.isEmpty();
  }

  private static String uid(JsonNode object) {
    return Json.text(object, "metadata.uid");
  }
}
