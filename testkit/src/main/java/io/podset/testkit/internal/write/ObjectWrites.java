package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Create, update, patch and delete of objects and of their status and scale subresources, with
 * Kubernetes' preconditions, defaulting, validation and metadata rules.
 */
public final class ObjectWrites {

  /** Which part of an object a write addresses. */
  public enum Target {
    MAIN,
    STATUS
  }

  private final ObjectStore store;
  private final Clock clock;
  private final Creates creates;

  public ObjectWrites(ObjectStore store, Clock clock, Random random) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.creates = new Creates(store, clock, random);
  }

  /** A write, or with {@code dryRun=All} its preview. */
  static ObjectStore.WriteResult write(
      ObjectStore store,
      boolean dryRun,
      String storageKey,
      String key,
      ObjectStore.Mutation mutation) {
    return dryRun
        ? store.preview(storageKey, key, mutation)
        : store.write(storageKey, key, mutation);
  }

  /**
   * The answer to a write of {@code result}: the object as {@code type} serves it. When a watch
   * already serialized the change, its bytes are the answer's: the same bytes as serializing the
   * object a second time, without the cost.
   */
  static ApiResponse answer(int status, ResourceType type, ObjectStore.WriteResult result) {
    ObjectNode object = result.object();
    if (result.event() != null && type.apiVersion().equals(object.path("apiVersion").asText())) {
      byte[] json = result.event().objectJsonIfSerialized();
      if (json != null) {
        return ApiResponse.json(status, json);
      }
    }
    return ApiResponse.json(status, ObjectMeta.render(type, object));
  }

  static boolean dryRun(ApiRequest request) {
    return DeleteOptions.dryRun(request, Json.object());
  }

  /** POST to a collection. */
  public ApiResponse create(ResourceType type, String namespace, ApiRequest request) {
    ObjectNode body = RequestBodies.object(request);
    RequestBodies.checkKind(type, body);
    RequestBodies.checkNamespace(type, namespace, body);
    List<String> warnings = FieldValidation.check(type, body, request);
    return FieldValidation.withWarnings(
        creates.create(type, namespace, body, dryRun(request), ManagedFields.manager(request)),
        warnings);
  }

  /** PUT of an object or its status. */
  public ApiResponse update(
      ResourceType type, String namespace, String name, Target target, ApiRequest request) {
    ObjectNode body = RequestBodies.object(request);
    RequestBodies.checkKind(type, body);
    RequestBodies.checkNamespace(type, namespace, body);
    RequestBodies.checkName(body, name);
    List<String> warnings = FieldValidation.check(type, body, request);
    return FieldValidation.withWarnings(
        commitUpdate(type, namespace, name, target, request, current -> body), warnings);
  }

  /** PATCH of an object or its status. */
  public ApiResponse patch(
      ResourceType type, String namespace, String name, Target target, ApiRequest request) {
    JsonNode patch = RequestBodies.patch(type, request);
    String contentType = request.contentType();
    if (contentType.equals(RequestBodies.APPLY)) {
      return apply(type, namespace, name, target, request, patch);
    }
    if (request.param("force") != null) {
      throw StatusError.badRequest("force is not allowed for non-apply patches");
    }
    List<String> warnings = new ArrayList<>();
    ApiResponse response =
        commitUpdate(
            type,
            namespace,
            name,
            target,
            request,
            current -> {
              JsonNode patched =
                  RequestBodies.applyPatch(contentType, ObjectMeta.render(type, current), patch);
              if (!patched.isObject()) {
                throw StatusError.badRequest("the patched object is not a JSON object");
              }
              ObjectNode result = (ObjectNode) patched;
              RequestBodies.checkKind(type, result);
              RequestBodies.checkNamespace(type, namespace, result);
              if (!name.equals(Json.name(result))) {
                throw StatusError.badRequest("metadata.name cannot be changed by a patch");
              }
              if (target == Target.MAIN) {
                warnings.addAll(FieldValidation.check(type, result, request));
              }
              return result;
            });
    return FieldValidation.withWarnings(response, warnings);
  }

  /** Server-side apply: creates the object if absent, else merges with field ownership. */
  private ApiResponse apply(
      ResourceType type,
      String namespace,
      String name,
      Target target,
      ApiRequest request,
      JsonNode patch) {
    String manager = request.param("fieldManager");
    if (manager == null || manager.isEmpty()) {
      ObjectNode details = Json.object();
      details.put("group", "meta.k8s.io");
      details.put("kind", "PatchOptions");
      ObjectNode cause = details.putArray("causes").addObject();
      cause.put("reason", "FieldValueRequired");
      cause.put("message", "Required value: is required for apply patch");
      cause.put("field", "fieldManager");
      throw new StatusError(
          422,
          "Invalid",
          "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required"
              + " for apply patch",
          details);
    }
    String forceParam = request.param("force");
    if (forceParam != null && !forceParam.equals("true") && !forceParam.equals("false")) {
      throw StatusError.badRequest("force: Invalid value: \"" + forceParam + "\"");
    }
    boolean force = "true".equals(forceParam);
    if (!patch.isObject()) {
      throw StatusError.badRequest("an apply configuration must be an object");
    }
    ObjectNode config = (ObjectNode) patch;
    RequestBodies.checkName(config, name);
    RequestBodies.checkKind(type, config);
    RequestBodies.checkNamespace(type, namespace, config);
    List<String> warnings = FieldValidation.check(type, config, request);
    boolean dryRun = dryRun(request);
    String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
    if (target == Target.MAIN && store.get(type.storageKey(), key) == null) {
      ObjectNode created =
          ServerSideApply.apply(type, null, config, manager, force, clock.instant());
      return FieldValidation.withWarnings(
          creates.create(type, namespace, created, dryRun, null), warnings);
    }
    return FieldValidation.withWarnings(
        commitUpdate(
            type,
            namespace,
            name,
            target,
            dryRun,
            null,
            current ->
                ServerSideApply.apply(
                    type,
                    ObjectMeta.render(type, current),
                    config,
                    manager,
                    force,
                    clock.instant())),
        warnings);
  }

  /** Computes the desired object from the current one. */
  @FunctionalInterface
  public interface Desired {
    /**
     * A new tree (a copy, never {@code current} or a part of it, which are stored and read-only)
     * that the caller does not use afterwards: the write takes it over without copying it again.
     */
    ObjectNode from(ObjectNode current);
  }

  /** An update a client asked for: its dry run, its manager gets the managedFields entry. */
  private ApiResponse commitUpdate(
      ResourceType type,
      String namespace,
      String name,
      Target target,
      ApiRequest request,
      Desired desired) {
    return commitUpdate(
        type, namespace, name, target, dryRun(request), ManagedFields.manager(request), desired);
  }

  /** An update by the server itself (scale, garbage collection): no managedFields entry. */
  public ApiResponse commitUpdate(
      ResourceType type, String namespace, String name, Target target, Desired desired) {
    return commitUpdate(type, namespace, name, target, false, null, desired);
  }

  // manager: who gets the Update entry of managedFields, or null (apply, the server's own writes).
  public ApiResponse commitUpdate(
      ResourceType type,
      String namespace,
      String name,
      Target target,
      boolean dryRun,
      String manager,
      Desired desired) {
    String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
    ObjectStore.WriteResult result =
        write(
            store,
            dryRun,
            type.storageKey(),
            key,
            current -> {
              if (current == null) {
                throw StatusError.notFound(type, name);
              }
              ObjectNode body = type.rules().toStorage(desired.from(current));
              ObjectNode next = Updates.prepare(type, current, body, target);
              if (manager != null) {
                ManagedFields.recordUpdate(
                    type, current, next, manager, target == Target.STATUS, clock.instant());
              }
              return Deletions.finished(next) ? null : next;
            });
    return answer(200, type, result);
  }

  /**
   * DELETE of one object, with uid and resourceVersion preconditions, graceful deletion of pods and
   * finalizers ({@link Deletions}).
   */
  public ApiResponse delete(ResourceType type, String namespace, String name, ApiRequest request) {
    DeleteOptions options = DeleteOptions.parse(request);
    String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
    ObjectNode object = deleteObject(type, key, options);
    if (object == null) {
      throw StatusError.notFound(type, name);
    }
    return ApiResponse.json(200, ObjectMeta.render(type, object));
  }

  /**
   * Deletes (or marks for deletion) one object by key; returns its last or marked state, or null
   * when it was absent.
   */
  public ObjectNode deleteObject(ResourceType type, String key, DeleteOptions options) {
    // An absent object stays absent: the store answers null for it, stored or previewed.
    return write(
            store,
            options.dryRun(),
            type.storageKey(),
            key,
            current ->
                current == null ? null : Deletions.next(type, current, options, clock.instant()))
        .object();
  }
}
