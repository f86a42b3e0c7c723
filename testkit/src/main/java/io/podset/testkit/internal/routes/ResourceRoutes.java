package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourcePath;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.ObjectWrites;
import io.podset.testkit.internal.write.RequestBodies;
import io.podset.testkit.internal.write.Scales;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * The paths of resources: a collection (list, watch, create, delete collection), an object (get,
 * update, patch, delete; a POST creates for custom resources as kube-apiserver's CRD handler does),
 * and its status and scale subresources, with 404 and 405 where the real server answers them.
 */
final class ResourceRoutes {

  private final ResourceRegistry registry;
  private final ObjectStore store;
  private final ObjectReads reads;
  private final ObjectWrites writes;
  private final WatchRequests watches;

  ResourceRoutes(
      ResourceRegistry registry,
      ObjectStore store,
      ObjectReads reads,
      ObjectWrites writes,
      WatchRequests watches) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.store = Objects.requireNonNull(store, "store");
    this.reads = Objects.requireNonNull(reads, "reads");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.watches = Objects.requireNonNull(watches, "watches");
  }

  /** 404 for a path the server does not serve. */
  static StatusError notFound() {
    return StatusError.pathNotFound("the server could not find the requested resource");
  }

  /** 405 for a verb the path does not take. */
  static StatusError notAllowed() {
    return StatusError.methodNotAllowed(
        "the server does not allow this method on the requested resource");
  }

  /** Serves {@code rest}, the path below {@code /api/v1} or {@code /apis/<group>/<version>}. */
  ApiResult route(ApiRequest request, String group, String version, List<String> rest) {
    ResourcePath path =
        ResourcePath.parse(
            group,
            version,
            rest,
            plural ->
                registry.find(group, version, plural).map(ResourceType::namespaced).orElse(false));
    if (path == null) {
      throw notFound();
    }
    ResourceType type =
        registry.find(group, version, path.resource()).orElseThrow(() -> notFound());
    if (type.namespaced() && path.namespace() == null && path.name() != null) {
      throw notFound();
    }
    if (!type.namespaced() && path.namespace() != null) {
      throw notFound();
    }
    String sub = path.subresource();
    if (sub != null
        && !(sub.equals("status") && type.statusSubresource())
        && !(sub.equals("scale") && type.scale() != null)) {
      throw notFound();
    }
    String method = request.method();
    String ns = path.namespace();
    if (path.name() == null) {
      return collection(request, type, ns, method, path.legacyWatch());
    }
    if (path.legacyWatch()) {
      throw StatusError.methodNotAllowed("watch of a single object by name is not supported here");
    }
    String name = path.name();
    ObjectWrites.Target target =
        "status".equals(sub) ? ObjectWrites.Target.STATUS : ObjectWrites.Target.MAIN;
    if ("scale".equals(sub)) {
      return scale(request, type, ns, name);
    }
    return switch (method) {
      case "GET" -> reads.get(type, ns, name, request);
      case "PUT" -> writes.update(type, ns, name, target, request);
      case "PATCH" -> writes.patch(type, ns, name, target, request);
      case "DELETE" -> {
        if (target == ObjectWrites.Target.STATUS) {
          throw notAllowed();
        }
        yield writes.delete(type, ns, name, request);
      }
      case "POST" -> {
        // The CRD handler of kube-apiserver treats a POST to an object's path as a create of the
        // body (the name in the path is ignored); built-in resources answer 405.
        if (type.custom() && target == ObjectWrites.Target.MAIN) {
          yield writes.create(type, ns, request);
        }
        throw StatusError.methodNotAllowed(
            "the server does not allow this method on the requested resource");
      }
      default -> throw notAllowed();
    };
  }

  private ApiResult collection(
      ApiRequest request, ResourceType type, String ns, String method, boolean legacyWatch) {
    switch (method) {
      case "GET" -> {
        String watch = request.param("watch");
        if (legacyWatch || "true".equals(watch) || "1".equals(watch)) {
          return watches.open(request, type, ns);
        }
        return reads.list(type, ns, request);
      }
      case "POST" -> {
        if (type.namespaced() && ns == null) {
          throw notAllowed();
        }
        return writes.create(type, ns, request);
      }
      case "DELETE" -> {
        return deleteCollection(request, type, ns);
      }
      default -> throw notAllowed();
    }
  }

  private ApiResult deleteCollection(ApiRequest request, ResourceType type, String ns) {
    DeleteOptions options = DeleteOptions.parse(request);
    ObjectReads.Page page = reads.page(type, ns, request);
    ObjectNode list = Json.object();
    list.put("kind", type.listKind());
    list.put("apiVersion", type.apiVersion());
    list.putObject("metadata");
    ArrayNode items = list.putArray("items");
    for (ObjectNode object : page.items()) {
      String key =
          ObjectStore.key(type.namespaced() ? Json.namespace(object) : null, Json.name(object));
      ObjectNode deleted = writes.deleteObject(type, key, options);
      if (deleted != null) {
        items.add(ObjectMeta.render(type, deleted));
      }
    }
    Json.metadata(list).put("resourceVersion", Long.toString(store.revision()));
    return ApiResponse.json(200, list);
  }

  private ApiResult scale(ApiRequest request, ResourceType type, String ns, String name) {
    switch (request.method()) {
      case "GET" -> {
        return ApiResponse.json(200, Scales.toScale(type, reads.find(type, ns, name)));
      }
      case "PUT" -> {
        ObjectNode body = RequestBodies.object(request);
        return updateScale(type, ns, name, current -> Scales.applyScale(type, current, body));
      }
      case "PATCH" -> {
        JsonNode patch = RequestBodies.patch(type, request);
        return updateScale(
            type,
            ns,
            name,
            current -> {
              ObjectNode scale = Scales.toScale(type, current);
              JsonNode patched = RequestBodies.applyPatch(request.contentType(), scale, patch);
              return Scales.applyScale(type, current, patched);
            });
      }
      default -> throw notAllowed();
    }
  }

  /** A write of the scale subresource, answered with the Scale of the object written. */
  private ApiResult updateScale(
      ResourceType type, String ns, String name, ObjectWrites.Desired desired) {
    return scaleOf(type, writes.commitUpdate(type, ns, name, ObjectWrites.Target.MAIN, desired));
  }

  /**
   * The Scale of the object {@code response} wrote: read from the answer, not the store, where a
   * concurrent write may already have replaced it.
   */
  private static ApiResult scaleOf(ResourceType type, ApiResponse response) {
    try {
      return ApiResponse.json(200, Scales.toScale(type, (ObjectNode) Json.parse(response.body())));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the object just written", e);
    }
  }
}
