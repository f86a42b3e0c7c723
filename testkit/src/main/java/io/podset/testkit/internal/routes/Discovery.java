package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The discovery documents: {@code /version}, {@code /api}, {@code /api/v1}, {@code /apis}, {@code
 * /apis/{group}} and {@code /apis/{group}/{version}}, in the plain form; {@link
 * AggregatedDiscovery} answers {@code /api} and {@code /apis} to clients that ask for the
 * aggregated one.
 */
public final class Discovery {

  static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private final ResourceRegistry registry;
  private final String gitVersion;
  private final Supplier<String> serverAddress;

  public Discovery(ResourceRegistry registry, String gitVersion, Supplier<String> serverAddress) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.gitVersion = Objects.requireNonNull(gitVersion, "gitVersion");
    this.serverAddress = Objects.requireNonNull(serverAddress, "serverAddress");
  }

  ObjectNode version() {
    String[] parts = gitVersion.replaceFirst("^v", "").split("[.-]");
    ObjectNode version = Json.object();
    version.put("major", parts[0]);
    String minor = parts.length > 1 ? parts[1] : "0";
    version.put("minor", minor);
    // As kube-apiserver 1.34: the emulated version, and the oldest it stays compatible with.
    version.put("emulationMajor", parts[0]);
    version.put("emulationMinor", minor);
    version.put("minCompatibilityMajor", parts[0]);
    version.put(
        "minCompatibilityMinor", Integer.toString(Math.max(0, Integer.parseInt(minor) - 1)));
    version.put("gitVersion", gitVersion);
    version.put("gitCommit", "0000000000000000000000000000000000000000");
    version.put("gitTreeState", "clean");
    version.put("buildDate", "2026-01-01T00:00:00Z");
    version.put("goVersion", "go1.24.13");
    version.put("compiler", "gc");
    version.put("platform", "linux/amd64");
    return version;
  }

  ObjectNode coreVersions() {
    ObjectNode api = Json.object();
    api.put("kind", "APIVersions");
    api.putArray("versions").add("v1");
    addServerAddress(api);
    return api;
  }

  private void addServerAddress(ObjectNode node) {
    ObjectNode address = node.putArray("serverAddressByClientCIDRs").addObject();
    address.put("clientCIDR", "0.0.0.0/0");
    address.put("serverAddress", serverAddress.get());
  }

  ObjectNode groups() {
    ObjectNode list = Json.object();
    list.put("kind", "APIGroupList");
    list.put("apiVersion", "v1");
    ArrayNode groups = list.putArray("groups");
    for (Map.Entry<String, List<String>> e : registry.groups().entrySet()) {
      groups.add(group(e.getKey(), e.getValue(), false));
    }
    return list;
  }

  /** The group document, or null when the group is not served. */
  ObjectNode group(String name) {
    List<String> versions = registry.groups().get(name);
    return versions == null ? null : group(name, versions, true);
  }

  private ObjectNode group(String name, List<String> versions, boolean standalone) {
    ObjectNode group = Json.object();
    if (standalone) {
      group.put("kind", "APIGroup");
      group.put("apiVersion", "v1");
    }
    group.put("name", name);
    ArrayNode list = group.putArray("versions");
    for (String version : versions) {
      ObjectNode v = list.addObject();
      v.put("groupVersion", name + "/" + version);
      v.put("version", version);
    }
    ObjectNode preferred = group.putObject("preferredVersion");
    preferred.put("groupVersion", name + "/" + versions.get(0));
    preferred.put("version", versions.get(0));
    return group;
  }

  /** The resource list of a group/version, or null when it is not served. */
  ObjectNode resources(String groupVersion) {
    List<ResourceType> types = registry.typesOf(groupVersion);
    if (types.isEmpty()) {
      return null;
    }
    ObjectNode list = Json.object();
    list.put("kind", "APIResourceList");
    list.put("apiVersion", "v1");
    list.put("groupVersion", groupVersion);
    ArrayNode resources = list.putArray("resources");
    for (ResourceType type : types) {
      ObjectNode r = resources.addObject();
      r.put("name", type.plural());
      r.put("singularName", type.singular());
      r.put("namespaced", type.namespaced());
      r.put("kind", type.kind());
      ArrayNode verbs = r.putArray("verbs");
      VERBS.forEach(verbs::add);
      if (!type.shortNames().isEmpty()) {
        ArrayNode shortNames = r.putArray("shortNames");
        type.shortNames().forEach(shortNames::add);
      }
      if (!type.categories().isEmpty()) {
        ArrayNode categories = r.putArray("categories");
        type.categories().forEach(categories::add);
      }
      if (type.statusSubresource()) {
        ObjectNode status = resources.addObject();
        status.put("name", type.plural() + "/status");
        status.put("singularName", "");
        status.put("namespaced", type.namespaced());
        status.put("kind", type.kind());
        status.putArray("verbs").add("get").add("patch").add("update");
      }
      if (type.scale() != null) {
        ObjectNode scale = resources.addObject();
        scale.put("name", type.plural() + "/scale");
        scale.put("singularName", "");
        scale.put("namespaced", type.namespaced());
        scale.put("group", "autoscaling");
        scale.put("version", "v1");
        scale.put("kind", "Scale");
        scale.putArray("verbs").add("get").add("patch").add("update");
      }
    }
    return list;
  }
}
