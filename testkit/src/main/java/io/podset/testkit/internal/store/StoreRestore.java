package io.podset.testkit.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.ResourceRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes a store hold exactly a snapshot, as ordinary changes: each differing object is deleted,
 * added or modified with a new revision and its watch event. Objects keep their uid and timestamps;
 * CRDs are restored first so their resources are served again. The caller holds the store's lock,
 * so nothing else writes in between.
 */
final class StoreRestore {

  private StoreRestore() {}

  static void restore(ObjectStore store, Map<String, Map<String, ObjectNode>> target) {
    List<String> storageKeys = new ArrayList<>(store.copyObjects().keySet());
    target.keySet().stream().filter(k -> !storageKeys.contains(k)).forEach(storageKeys::add);
    storageKeys.sort(
        (a, b) ->
            Boolean.compare(
                !a.equals(ResourceRegistry.CRD_STORAGE), !b.equals(ResourceRegistry.CRD_STORAGE)));
    // Commit listeners (garbage collection) may undo a step; later passes repair that, up to
    // three in all, stopping at the first pass that changes nothing.
    for (int pass = 0; pass < 3; pass++) {
      boolean changed = false;
      for (String storageKey : storageKeys) {
        Map<String, ObjectNode> wanted = target.getOrDefault(storageKey, Map.of());
        Map<String, ObjectNode> present = store.copyObjects().get(storageKey);
        for (String key : present == null ? List.<String>of() : List.copyOf(present.keySet())) {
          if (!wanted.containsKey(key)) {
            changed |= store.write(storageKey, key, current -> null).changed();
          }
        }
        for (Map.Entry<String, ObjectNode> e : wanted.entrySet()) {
          ObjectNode object = e.getValue();
          changed |= store.write(storageKey, e.getKey(), current -> object.deepCopy()).changed();
        }
      }
      if (!changed) {
        return;
      }
    }
  }
}
