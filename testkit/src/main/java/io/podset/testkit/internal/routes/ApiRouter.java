package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.ObjectWrites;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The terminal request handler: the root, health, version, discovery and OpenAPI documents, and the
 * resource paths ({@link ResourceRoutes}).
 */
public final class ApiRouter implements RequestFilter.Chain {

  private final Discovery discovery;
  private final OpenApiDocuments openApi;
  private final ResourceRoutes resources;

  public ApiRouter(
      ResourceRegistry registry,
      ObjectStore store,
      Discovery discovery,
      OpenApiDocuments openApi,
      ObjectReads reads,
      ObjectWrites writes,
      Clock clock,
      Duration bookmarkInterval) {
    this.discovery = Objects.requireNonNull(discovery, "discovery");
    this.openApi = Objects.requireNonNull(openApi, "openApi");
    this.resources =
        new ResourceRoutes(
            registry, store, reads, writes, new WatchRequests(store, clock, bookmarkInterval));
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
          throw ResourceRoutes.notFound();
        }
        if (segments.size() == 2) {
          return ApiResponse.json(200, discovery.resources("v1"));
        }
        return resources.route(request, "", "v1", segments.subList(2, segments.size()));
      }
      case "apis" -> {
        if (segments.size() == 1) {
          return ApiResponse.json(200, discovery.groups());
        }
        if (segments.size() == 2) {
          ObjectNode group = discovery.group(segments.get(1));
          if (group == null) {
            throw ResourceRoutes.notFound();
          }
          return ApiResponse.json(200, group);
        }
        String gv = segments.get(1) + "/" + segments.get(2);
        if (segments.size() == 3) {
          ObjectNode resources = discovery.resources(gv);
          if (resources == null) {
            throw ResourceRoutes.notFound();
          }
          return ApiResponse.json(200, resources);
        }
        return resources.route(
            request, segments.get(1), segments.get(2), segments.subList(3, segments.size()));
      }
      default -> throw ResourceRoutes.notFound();
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
    throw ResourceRoutes.notFound();
  }

  private ObjectNode rootPaths() {
    ObjectNode root = Json.object();
    ArrayNode paths = root.putArray("paths");
    paths.add("/api").add("/api/v1").add("/apis").add("/healthz").add("/version");
    return root;
  }
}
