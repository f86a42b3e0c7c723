package io.podset.testkit.internal.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.FieldSelector;
import io.podset.testkit.internal.store.LabelSelector;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.store.StoredEvent;
import io.podset.testkit.internal.tables.Tables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/** GET of one object and of collections: resourceVersion semantics, selectors, pages, tables. */
public final class ObjectReads {

  private final ObjectStore store;
  private final Clock clock;

  public ObjectReads(ObjectStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public ObjectNode find(ResourceType type, String namespace, String name) {
    ObjectNode object =
        store.get(type.storageKey(), ObjectStore.key(type.namespaced() ? namespace : null, name));
    if (object == null) {
      throw StatusError.notFound(type, name);
    }
    return ObjectMeta.render(type, object);
  }

  public ApiResponse get(ResourceType type, String namespace, String name, ApiRequest request) {
    if (!request.wantsTable()) {
      StoredEvent change =
          store.lastChange(
              type.storageKey(), ObjectStore.key(type.namespaced() ? namespace : null, name));
      if (change == null) {
        throw StatusError.notFound(type, name);
      }
      if (type.apiVersion().equals(change.object().path("apiVersion").asText())) {
        // Served as stored: the bytes serialized once per change, shared with its watch events.
        return ApiResponse.json(200, change.objectJson());
      }
      return ApiResponse.json(200, ObjectMeta.render(type, change.object()));
    }
    ObjectNode object = find(type, namespace, name);
    Tables.checkInclude(request.param("includeObject"));
    return ApiResponse.json(
        200,
        Tables.table(
            type,
            List.of(object),
            Json.resourceVersion(object),
            request.param("includeObject"),
            clock.instant()));
  }

  /** The selected objects of one resource: a list or a page of it. */
  public record Page(
      long resourceVersion, List<ObjectNode> items, String continueToken, Long remaining) {}

  public ApiResponse list(ResourceType type, String namespace, ApiRequest request) {
    Page page = page(type, namespace, request);
    String rv = Long.toString(page.resourceVersion());
    if (request.wantsTable()) {
      Tables.checkInclude(request.param("includeObject"));
      ObjectNode table =
          Tables.table(type, page.items(), rv, request.param("includeObject"), clock.instant());
      addPaging(table, page);
      return ApiResponse.json(200, table);
    }
    ObjectNode list = Json.object();
    list.put("kind", type.listKind());
    list.put("apiVersion", type.apiVersion());
    ObjectNode meta = list.putObject("metadata");
    meta.put("resourceVersion", rv);
    addPaging(list, page);
    ArrayNode items = list.putArray("items");
    page.items().forEach(items::add);
    return ApiResponse.json(200, list);
  }

  private static void addPaging(ObjectNode list, Page page) {
    ObjectNode meta = (ObjectNode) list.get("metadata");
    if (page.continueToken() != null) {
      meta.put("continue", page.continueToken());
    }
    if (page.remaining() != null) {
      meta.put("remainingItemCount", page.remaining());
    }
  }

  public Page page(ResourceType type, String namespace, ApiRequest request) {
    LabelSelector labels = LabelSelector.parse(request.param("labelSelector"));
    FieldSelector fields =
        FieldSelector.parse(
            request.param("fieldSelector"), type.fieldSelectors(), StatusError.qualified(type));
    long limit = parseLimit(request.param("limit"));
    String rvParam = request.param("resourceVersion");
    String match = request.param("resourceVersionMatch");
    String token = request.param("continue");
    Long at = null;
    String after = null;
    if (token != null && !token.isEmpty()) {
      if (rvParam != null && !rvParam.isEmpty()) {
        throw StatusError.badRequest(
            "specifying resource version is not allowed when using continue");
      }
      Continue parsed = Continue.decode(token);
      at = parsed.resourceVersion();
      after = parsed.lastKey();
    } else {
      at = readRevision(rvParam, match);
    }
    String prefix = type.namespaced() && namespace != null ? namespace + "/" : "";
    ObjectStore.ListSnapshot snapshot;
    try {
      snapshot = store.list(type.storageKey(), prefix, after, at);
    } catch (StatusError e) {
      if (e.code() == 410 && token != null && !token.isEmpty()) {
        throw StatusError.gone(
            "The provided continue parameter is too old to display a consistent list result. You"
                + " can start a new list without the continue parameter.");
      }
      throw e;
    }
    // Only the page is selected and rendered: rendering every object after the continue key
    // made paging through N objects cost N^2 / limit renders (100k pods in pages of 500: 10M).
    boolean everything = labels.isEverything() && fields.isEverything();
    List<ObjectNode> objects = snapshot.objects();
    List<ObjectNode> items = new ArrayList<>();
    int next = 0;
    for (; next < objects.size() && (limit <= 0 || items.size() < limit); next++) {
      ObjectNode object = objects.get(next);
      if (matches(type, labels, fields, object)) {
        items.add(ObjectMeta.render(type, object));
      }
    }
    boolean more = false;
    for (int i = next; i < objects.size() && !more; i++) {
      more = everything || matches(type, labels, fields, objects.get(i));
    }
    if (!more) {
      return new Page(snapshot.resourceVersion(), items, null, null);
    }
    String last = keyOf(type, items.get(items.size() - 1));
    return new Page(
        snapshot.resourceVersion(),
        List.copyOf(items),
        new Continue(snapshot.resourceVersion(), last).encode(),
        everything ? (long) (objects.size() - next) : null);
  }

  private static boolean matches(
      ResourceType type, LabelSelector labels, FieldSelector fields, ObjectNode object) {
    return labels.matches(object) && fields.matches(type.rules().fromStorage(object));
  }

  private static String keyOf(ResourceType type, JsonNode object) {
    return ObjectStore.key(type.namespaced() ? Json.namespace(object) : null, Json.name(object));
  }

  private static long parseLimit(String limit) {
    if (limit == null || limit.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(limit);
    } catch (NumberFormatException e) {
      throw StatusError.badRequest("limit: Invalid value: \"" + limit + "\": must be an integer");
    }
  }

  /**
   * The revision a list reads at: null for the newest state. {@code 0} and NotOlderThan read the
   * newest state (after checking the revision is not in the future); Exact reads history.
   */
  private Long readRevision(String rvParam, String match) {
    if (match != null
        && !match.isEmpty()
        && !match.equals("NotOlderThan")
        && !match.equals("Exact")) {
      throw StatusError.badRequest(
          "resourceVersionMatch: Unsupported value: \""
              + match
              + "\": supported values: \"Exact\", \"NotOlderThan\"");
    }
    if (rvParam == null || rvParam.isEmpty()) {
      if (match != null && !match.isEmpty()) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
            null);
      }
      return null;
    }
    long rv = parseRevision(rvParam);
    if ("Exact".equals(match)) {
      if (rv == 0) {
        throw new StatusError(
            422,
            "Invalid",
            "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            null);
      }
      return rv;
    }
    long current = store.revision();
    if (rv > current) {
      throw StatusError.tooLargeResourceVersion(rv, current);
    }
    return null;
  }

  public static long parseRevision(String rv) {
    try {
      long value = Long.parseLong(rv);
      if (value < 0) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw StatusError.badRequest(
          "resourceVersion: Invalid value: \"" + rv + "\": must be a non-negative integer");
    }
  }

  /** A continue token: the snapshot revision and the last key returned. */
  record Continue(long resourceVersion, String lastKey) {
    String encode() {
      ObjectNode node = Json.object();
      node.put("v", "meta.k8s.io/v1");
      node.put("rv", resourceVersion);
      node.put("start", lastKey);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(node));
    }

    static Continue decode(String token) {
      try {
        JsonNode node =
            Json.parse(Base64.getUrlDecoder().decode(token.getBytes(StandardCharsets.UTF_8)));
        if (node == null
            || !node.path("rv").canConvertToLong()
            || !node.path("start").isTextual()) {
          throw new IllegalArgumentException("missing fields");
        }
        return new Continue(node.get("rv").asLong(), node.get("start").asText());
      } catch (Exception e) {
        throw StatusError.badRequest("continue key is not valid: " + e.getMessage());
      }
    }
  }
}
