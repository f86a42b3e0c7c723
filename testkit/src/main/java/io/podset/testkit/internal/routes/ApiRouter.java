package io.podset.testkit.internal.routes;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.RequestFilter;
import io.podset.testkit.internal.openapi.OpenApiV3;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.ObjectWrites;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The terminal request handler: the root, health, version, discovery (plain and aggregated) and
 * OpenAPI documents ({@link OpenApiRoutes}), and the resource paths ({@link ResourceRoutes}).
 */
public final class ApiRouter implements RequestFilter.Chain {

  private final Discovery discovery;
  private final AggregatedDiscovery aggregated;
  private final OpenApiRoutes openApi;
  private final ResourceRoutes resources;

  public ApiRouter(
      ResourceRegistry registry,
      ObjectStore store,
      Discovery discovery,
      OpenApiV3 openApi,
      ObjectReads reads,
      ObjectWrites writes,
      Clock clock,
      Duration bookmarkInterval) {
    this.discovery = Objects.requireNonNull(discovery, "discovery");
    this.aggregated = new AggregatedDiscovery(registry);
    this.openApi = new OpenApiRoutes(Objects.requireNonNull(openApi, "openApi"), clock::instant);
    this.resources =
        new ResourceRoutes(
            registry, store, reads, writes, new WatchRequests(store, clock, bookmarkInterval));
  }

  @Override
  public ApiResult proceed(ApiRequest request) {
    List<String> segments = request.segments();
    if (segments.isEmpty()) {
      return ApiResponse.json(200, rootPaths());
    }
    switch (segments.get(0)) {
      case "version" -> {
        return ApiResponse.json(200, discovery.version());
      }
      case "openapi" -> {
        return openApi.route(request, segments);
      }
      case "healthz", "livez", "readyz" -> {
        return ApiResponse.text(200, "ok");
      }
      case "api" -> {
        if (segments.size() == 1) {
          return switch (AggregatedDiscovery.negotiate(request.header("accept"))) {
            case AGGREGATED -> aggregated.core();
            case PLAIN -> ApiResponse.json(200, discovery.coreVersions());
            case NOT_ACCEPTABLE -> notAcceptable();
          };
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
          return switch (AggregatedDiscovery.negotiate(request.header("accept"))) {
            case AGGREGATED -> aggregated.groups();
            case PLAIN -> ApiResponse.json(200, discovery.groups());
            case NOT_ACCEPTABLE -> notAcceptable();
          };
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

  /** As kube-apiserver answers an {@code Accept} it has no serializer for. */
  private static ApiResponse notAcceptable() {
    return ApiResponse.error(
        new StatusError(
            406,
            "NotAcceptable",
            "only the following media types are accepted: application/json, application/yaml,"
                + " application/vnd.kubernetes.protobuf",
            null));
  }

  private ObjectNode rootPaths() {
    ObjectNode root = Json.object();
    ArrayNode paths = root.putArray("paths");
    paths.add("/api").add("/api/v1").add("/apis").add("/healthz").add("/version");
    return root;
  }
}
