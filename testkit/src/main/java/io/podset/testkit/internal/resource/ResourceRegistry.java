package io.podset.testkit.internal.resource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The resources the server serves: the built-in ones and those defined by installed CRDs. Order of
 * registration is the order of discovery.
 */
public final class ResourceRegistry {

  /** The storage key of CustomResourceDefinitions. */
  public static final String CRD_STORAGE = "apiextensions.k8s.io/customresourcedefinitions";

  private final Object lock = new Object();
  // Guarded by lock: groupVersion -> plural -> type, in registration order.
  private final Map<String, Map<String, ResourceType>> byGroupVersion = new LinkedHashMap<>();
  // Guarded by lock: group -> preferred version (the first registered).
  private final Map<String, List<String>> versionsByGroup = new LinkedHashMap<>();

  public void register(ResourceType type) {
    Objects.requireNonNull(type, "type");
    synchronized (lock) {
      byGroupVersion
          .computeIfAbsent(type.groupVersion(), k -> new LinkedHashMap<>())
          .put(type.plural(), type);
      List<String> versions = versionsByGroup.computeIfAbsent(type.group(), k -> new ArrayList<>());
      if (!versions.contains(type.version())) {
        versions.add(type.version());
      }
    }
  }

  /**
   * Unregisters {@code group}/{@code plural} and registers {@code types} in one step, so a request
   * racing a CRD update finds either the old definition or the new one, never none.
   */
  public void replace(String group, String plural, List<ResourceType> types) {
    synchronized (lock) {
      unregister(group, plural);
      types.forEach(this::register);
    }
  }

  /** Removes every version of the resource {@code plural.group}. */
  public void unregister(String group, String plural) {
    synchronized (lock) {
      List<String> versions = versionsByGroup.getOrDefault(group, List.of());
      for (String version : List.copyOf(versions)) {
        String gv = group.isEmpty() ? version : group + "/" + version;
        Map<String, ResourceType> types = byGroupVersion.get(gv);
        if (types != null) {
          types.remove(plural);
          if (types.isEmpty()) {
            byGroupVersion.remove(gv);
            versions.remove(version);
          }
        }
      }
      if (versions.isEmpty()) {
        versionsByGroup.remove(group);
      }
    }
  }

  public Optional<ResourceType> find(String group, String version, String plural) {
    synchronized (lock) {
      String gv = group.isEmpty() ? version : group + "/" + version;
      Map<String, ResourceType> types = byGroupVersion.get(gv);
      return types == null ? Optional.empty() : Optional.ofNullable(types.get(plural));
    }
  }

  /** The types served at a group/version, or empty when the group/version is unknown. */
  public List<ResourceType> typesOf(String groupVersion) {
    synchronized (lock) {
      Map<String, ResourceType> types = byGroupVersion.get(groupVersion);
      return types == null ? List.of() : List.copyOf(types.values());
    }
  }

  /** Groups (excluding the core group) with their versions, preferred first. */
  public Map<String, List<String>> groups() {
    synchronized (lock) {
      Map<String, List<String>> copy = new LinkedHashMap<>();
      versionsByGroup.forEach(
          (group, versions) -> {
            if (!group.isEmpty()) {
              copy.put(group, List.copyOf(versions));
            }
          });
      return copy;
    }
  }

  /** Every type served, for tests and for cleaning up. */
  public List<ResourceType> all() {
    synchronized (lock) {
      List<ResourceType> all = new ArrayList<>();
      byGroupVersion.values().forEach(m -> all.addAll(m.values()));
      return all;
    }
  }
}
