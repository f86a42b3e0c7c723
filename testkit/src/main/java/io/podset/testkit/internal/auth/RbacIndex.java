package io.podset.testkit.internal.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Roles, ClusterRoles and bindings of the store as fabric8 objects, kept current by commits (as
 * the real authorizer's informers, but synchronously: a request sent after a binding's create
 * returned sees it). Lookups return immutable snapshots, so callers evaluate rules without the lock
 * while commits go on. The fabric8 objects are never modified once indexed.
 *
 * <p>Thread-safe: commits arrive under the store lock, lookups from request threads.
 */
final class RbacIndex implements ObjectStore.CommitListener {

  static final String GROUP = "rbac.authorization.k8s.io";
  private static final String ROLES = GROUP + "/roles";
  private static final String CLUSTER_ROLES = GROUP + "/clusterroles";
  private static final String ROLE_BINDINGS = GROUP + "/rolebindings";
  private static final String CLUSTER_ROLE_BINDINGS = GROUP + "/clusterrolebindings";

  /** An immutable view of every RBAC object at one moment. */
  record Snapshot(
      Map<String, ClusterRole> clusterRoles,
      Map<String, Role> roles,
      List<ClusterRoleBinding> clusterRoleBindings,
      Map<String, List<RoleBinding>> roleBindings) {

    ClusterRole clusterRole(String name) {
      return clusterRoles.get(name);
    }

    Role role(String namespace, String name) {
      return roles.get(namespace + "/" + name);
    }

    List<RoleBinding> roleBindingsIn(String namespace) {
      return roleBindings.getOrDefault(namespace, List.of());
    }
  }

  private final ObjectStore store;
  private final Object lock = new Object();
  // Guarded by lock: name -> ClusterRole.
  private final Map<String, ClusterRole> clusterRoles = new HashMap<>();
  // Guarded by lock: namespace/name -> Role.
  private final Map<String, Role> roles = new HashMap<>();
  // Guarded by lock: name -> ClusterRoleBinding, by name.
  private final Map<String, ClusterRoleBinding> clusterRoleBindings = new TreeMap<>();
  // Guarded by lock: namespace/name -> RoleBinding, by key.
  private final Map<String, RoleBinding> roleBindings = new TreeMap<>();
  // Guarded by lock: the snapshot of the current state, or null once a commit changed it.
  private Snapshot snapshot;

  RbacIndex(ObjectStore store) {
    this.store = java.util.Objects.requireNonNull(store, "store");
  }

  @Override
  public void committed(StoredEvent event) {
    switch (event.storageKey()) {
      case CLUSTER_ROLES -> apply(clusterRoles, event, ClusterRole.class);
      case ROLES -> apply(roles, event, Role.class);
      case CLUSTER_ROLE_BINDINGS -> apply(clusterRoleBindings, event, ClusterRoleBinding.class);
      case ROLE_BINDINGS -> apply(roleBindings, event, RoleBinding.class);
      default -> {
        // Not an RBAC object.
      }
    }
  }

  private <T> void apply(Map<String, T> objects, StoredEvent event, Class<T> type) {
    // The store's current object, not the event's: a listener before this one (the garbage
    // collector) may have written the same object again, nested, so this index can see a newer
    // event before the older one. Converted outside the index lock: lookups never wait for
    // Jackson; commits are serialized by the store lock.
    JsonNode current = store.get(event.storageKey(), event.key());
    T object = current == null ? null : convert(current, type);
    synchronized (lock) {
      if (object == null) {
        objects.remove(event.key());
      } else {
        objects.put(event.key(), object);
      }
      snapshot = null;
    }
  }

  private static <T> T convert(JsonNode node, Class<T> type) {
    return Json.MAPPER.convertValue(node, type);
  }

  /** The current state. */
  Snapshot snapshot() {
    synchronized (lock) {
      if (snapshot == null) {
        Map<String, List<RoleBinding>> byNamespace = new HashMap<>();
        roleBindings.forEach(
            (key, binding) ->
                byNamespace
                    .computeIfAbsent(key.substring(0, key.indexOf('/')), k -> new ArrayList<>())
                    .add(binding));
        byNamespace.replaceAll((ns, list) -> List.copyOf(list));
        snapshot =
            new Snapshot(
                Map.copyOf(clusterRoles),
                Map.copyOf(roles),
                List.copyOf(clusterRoleBindings.values()),
                Map.copyOf(byNamespace));
      }
      return snapshot;
    }
  }
}
