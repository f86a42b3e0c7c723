package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.http.WatchResult;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.read.WatchSession;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourcePath;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.FieldSelector;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.tables.Tables;
import io.podset.testkit.internal.write.DeleteOptions;
import io.podset.testkit.internal.write.ObjectWrites;
import io.podset.testkit.internal.write.Scales;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** The terminal request handler: discovery documents and resource operations by verb. */
public final class ApiRouter implements RequestFilter.Chain {

  private final ResourceRegistry registry;
  private final ObjectStore store;
  private final Discovery discovery;
  private final OpenApiDocuments openApi;
  private final ObjectReads reads;
  private final ObjectWrites writes;
  private final Clock clock;
  private final Duration bookmarkInterval;

  public ApiRouter(
      ResourceRegistry registry,
      ObjectStore store,
      Discovery discovery,
      OpenApiDocuments openApi,
      ObjectReads reads,
      ObjectWrites writes,
      Clock clock,
      Duration bookmarkInterval) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.store = Objects.requireNonNull(store, "store");
    this.discovery = Objects.requireNonNull(discovery, "discovery");
    this.openApi = Objects.requireNonNull(openApi, "openApi");
    this.reads = Objects.requireNonNull(reads, "reads");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.bookmarkInterval = Objects.requireNonNull(bookmarkInterval, "bookmarkInterval");
  }

  @Override
  public ApiResult proceed(ApiRequest request) {
    String path = request.path();
    List<String> segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    if (segments.isEmpty()) {
      return ApiResponse.json(200, rootPaths());
    }
    switch (segments.get(0)) {
      case "version" -> {
        return ApiResponse.json(200, discovery.version());
      }
      case "openapi" -> {
        return openApi(segments);
      }
      case "healthz", "livez", "readyz" -> {
        return ApiResponse.text(200, "ok");
      }
      case "api" -> {
        if (segments.size() == 1) {
          return ApiResponse.json(200, discovery.coreVersions());
        }
        if (!segments.get(1).equals("v1")) {
          throw StatusError.pathNotFound("the server could not find the requested resource");
        }
        if (segments.size() == 2) {
          return ApiResponse.json(200, discovery.resources("v1"));
        }
        return resource(request, "", "v1", segments.subList(2, segments.size()));
      }
      case "apis" -> {
        if (segments.size() == 1) {
          return ApiResponse.json(200, discovery.groups());
        }
        if (segments.size() == 2) {
          ObjectNode group = discovery.group(segments.get(1));
          if (group == null) {
            throw StatusError.pathNotFound("the server could not find the requested resource");
          }
          return ApiResponse.json(200, group);
        }
        String gv = segments.get(1) + "/" + segments.get(2);
        if (segments.size() == 3) {
          ObjectNode resources = discovery.resources(gv);
          if (resources == null) {
            throw StatusError.pathNotFound("the server could not find the requested resource");
          }
          return ApiResponse.json(200, resources);
        }
        return resource(
            request, segments.get(1), segments.get(2), segments.subList(3, segments.size()));
      }
      default -> throw StatusError.pathNotFound("the server could not find the requested resource");
    }
  }

  private ApiResult openApi(List<String> segments) {
    if (segments.size() >= 2 && segments.get(1).equals("v3")) {
      if (segments.size() == 2) {
        return ApiResponse.json(200, openApi.index());
      }
      String gv = null;
      if (segments.size() == 4 && segments.get(2).equals("api")) {
        gv = segments.get(3);
      } else if (segments.size() == 5 && segments.get(2).equals("apis")) {
        gv = segments.get(3) + "/" + segments.get(4);
      }
      ObjectNode doc = gv == null ? null : openApi.document(gv);
      if (doc != null) {
        return ApiResponse.json(200, doc);
      }
    }
    throw StatusError.pathNotFound("the server could not find the requested resource");
  }

  private ObjectNode rootPaths() {
    ObjectNode root = Json.object();
    ArrayNode paths = root.putArray("paths");
    paths.add("/api").add("/api/v1").add("/apis").add("/healthz").add("/version");
    return root;
  }

  private ApiResult resource(ApiRequest request, String group, String version, List<String> rest) {
    ResourcePath path =
        ResourcePath.parse(
            group,
            version,
            rest,
            plural ->
                registry.find(group, version, plural).map(ResourceType::namespaced).orElse(false));
    if (path == null) {
      throw StatusError.pathNotFound("the server could not find the requested resource");
    }
    ResourceType type =
        registry
            .find(group, version, path.resource())
            .orElseThrow(
                () -> StatusError.pathNotFound("the server could not find the requested resource"));
    if (type.namespaced() && path.namespace() == null && path.name() != null) {
      throw StatusError.pathNotFound("the server could not find the requested resource");
    }
    if (!type.namespaced() && path.namespace() != null) {
      throw StatusError.pathNotFound("the server could not find the requested resource");
    }
    String sub = path.subresource();
    if (sub != null
        && !(sub.equals("status") && type.statusSubresource())
        && !(sub.equals("scale") && type.scale() != null)) {
      throw StatusError.pathNotFound("the server could not find the requested resource");
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
          throw StatusError.methodNotAllowed(
              "the server does not allow this method on the requested resource");
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
      default ->
          throw StatusError.methodNotAllowed(
              "the server does not allow this method on the requested resource");
    };
  }

  private ApiResult collection(
      ApiRequest request, ResourceType type, String ns, String method, boolean legacyWatch) {
    switch (method) {
      case "GET" -> {
        String watch = request.param("watch");
        if (legacyWatch || "true".equals(watch) || "1".equals(watch)) {
          return watch(request, type, ns);
        }
        return reads.list(type, ns, request);
      }
      case "POST" -> {
        if (type.namespaced() && ns == null) {
          throw StatusError.methodNotAllowed(
              "the server does not allow this method on the requested resource");
        }
        return writes.create(type, ns, request);
      }
      case "DELETE" -> {
        return deleteCollection(request, type, ns);
      }
      default ->
          throw StatusError.methodNotAllowed(
              "the server does not allow this method on the requested resource");
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
        ObjectNode body = ObjectWrites.parseObject(request);
        ApiResponse response =
            writes.commitUpdate(
                type,
                ns,
                name,
                ObjectWrites.Target.MAIN,
                current -> Scales.applyScale(type, current, body));
        return scaleOf(type, response);
      }
      case "PATCH" -> {
        com.fasterxml.jackson.databind.JsonNode patch = ObjectWrites.parsePatch(type, request);
        ApiResponse response =
            writes.commitUpdate(
                type,
                ns,
                name,
                ObjectWrites.Target.MAIN,
                current -> {
                  ObjectNode scale = Scales.toScale(type, current);
                  com.fasterxml.jackson.databind.JsonNode patched =
                      ObjectWrites.applyPatch(request.contentType(), scale, patch);
                  return Scales.applyScale(type, current, patched);
                });
        return scaleOf(type, response);
      }
      default ->
          throw StatusError.methodNotAllowed(
              "the server does not allow this method on the requested resource");
    }
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

  private ApiResult watch(ApiRequest request, ResourceType type, String ns) {
    LabelSelector labels = LabelSelector.parse(request.param("labelSelector"));
    FieldSelector fields =
        FieldSelector.parse(
            request.param("fieldSelector"), type.fieldSelectors(), StatusError.qualified(type));
    String rv = request.param("resourceVersion");
    String match = request.param("resourceVersionMatch");
    String sendInitial = request.param("sendInitialEvents");
    boolean bookmarks = "true".equals(request.param("allowWatchBookmarks"));
    Duration timeout = null;
    String timeoutParam = request.param("timeoutSeconds");
    if (timeoutParam != null && !timeoutParam.isEmpty()) {
      try {
        long seconds = Long.parseLong(timeoutParam);
        timeout = seconds > 0 ? Duration.ofSeconds(seconds) : null;
      } catch (NumberFormatException e) {
        throw StatusError.badRequest("timeoutSeconds: Invalid value: \"" + timeoutParam + "\"");
      }
    }
    boolean initialEventsEnd = false;
    Long from;
    if ("true".equals(sendInitial)) {
      if (!"NotOlderThan".equals(match)) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            null);
      }
      if (!bookmarks) {
        throw new StatusError(
            422,
            "Invalid",
            "allowWatchBookmarks: Forbidden: sendInitialEvents requires allowWatchBookmarks=true",
            null);
      }
      initialEventsEnd = true;
      from = null;
    } else {
      if (match != null && !match.isEmpty()) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            null);
      }
      boolean noInitial = "false".equals(sendInitial);
      if (rv == null || rv.isEmpty() || rv.equals("0")) {
        from = noInitial ? store.revision() : null;
      } else {
        from = ObjectReads.parseRevision(rv);
      }
    }
    if (request.wantsTable()) {
      Tables.checkInclude(request.param("includeObject"));
    }
    String prefix = type.namespaced() && ns != null ? ns + "/" : "";
    WatchSession.Options options =
        new WatchSession.Options(
            prefix,
            labels,
            fields,
            bookmarks,
            initialEventsEnd,
            timeout,
            request.wantsTable(),
            request.param("includeObject"));
    return new WatchResult(
        sink -> new WatchSession(type, options, sink, clock).start(store, from, bookmarkInterval));
  }
}
