package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.codec.ProtobufBodies;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * Create, update, patch and delete of objects and of their status and scale subresources, with
 * Kubernetes' preconditions, defaulting, validation and metadata rules.
 */
public final class ObjectWrites {

  private static final YAMLMapper YAML = new YAMLMapper();

  /** Which part of an object a write addresses. */
  public enum Target {
    MAIN,
    STATUS
  }

  private final ObjectStore store;
  private final Clock clock;
  private final Object randomLock = new Object();
  // Guarded by randomLock.
  private final Random random;

  public ObjectWrites(ObjectStore store, Clock clock, Random random) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** The media types an object body may come in. */
  static final String OBJECT_MEDIA_TYPES =
      "application/json, application/yaml, " + ProtobufBodies.MEDIA_TYPE;

  static final String PATCH_MEDIA_TYPES =
      "application/json-patch+json, application/merge-patch+json, "
          + "application/strategic-merge-patch+json, "
          + "application/apply-patch+yaml";

  public static ObjectNode parseObject(ApiRequest request) {
    String type = request.contentType();
    JsonNode node;
    try {
      if (type == null
          || type.equals("application/json")
          || type.equals("*/*")
          || type.endsWith("+json")) {
        node = Json.parse(request.body());
      } else if (type.equals("application/yaml")) {
        node = YAML.readTree(request.body());
      } else if (type.equals(ProtobufBodies.MEDIA_TYPE)) {
        return ProtobufBodies.decode(request.body());
      } else {
        throw StatusError.unsupportedMediaType(type, OBJECT_MEDIA_TYPES);
      }
    } catch (IOException e) {
      throw StatusError.badRequest(
          "the body of the request could not be decoded: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw StatusError.badRequest("the body of the request must be a JSON object");
    }
    return (ObjectNode) node;
  }

  private static void checkKind(ResourceType type, ObjectNode body) {
    String apiVersion = body.path("apiVersion").asText("");
    String kind = body.path("kind").asText("");
    if (apiVersion.isEmpty()) {
      body.put("apiVersion", type.apiVersion());
    } else if (!apiVersion.equals(type.apiVersion())) {
      throw StatusError.badRequest(
          "the API version in the data ("
              + apiVersion
              + ") does not match the expected API version ("
              + type.apiVersion()
              + ")");
    }
    if (kind.isEmpty()) {
      body.put("kind", type.kind());
    } else if (!kind.equals(type.kind())) {
      throw StatusError.badRequest(
          "the kind in the data ("
              + kind
              + ") does not match the expected kind ("
              + type.kind()
              + ")");
    }
  }

  private static void checkNamespace(ResourceType type, String namespace, ObjectNode body) {
    ObjectNode meta = Json.metadata(body);
    if (!type.namespaced()) {
      meta.remove("namespace");
      return;
    }
    String declared = meta.path("namespace").asText("");
    if (declared.isEmpty()) {
      meta.put("namespace", namespace);
    } else if (!declared.equals(namespace)) {
      throw StatusError.badRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
  }

  /** A write, or with {@code dryRun=All} its preview. */
  private ObjectStore.WriteResult write(
      boolean dryRun, String storageKey, String key, ObjectStore.Mutation mutation) {
    return dryRun
        ? store.preview(storageKey, key, mutation)
        : store.write(storageKey, key, mutation);
  }

  static boolean dryRun(ApiRequest request) {
    return DeleteOptions.dryRun(request, Json.object());
  }

  /** POST to a collection. */
  public ApiResponse create(ResourceType type, String namespace, ApiRequest request) {
    ObjectNode body = parseObject(request);
    checkKind(type, body);
    checkNamespace(type, namespace, body);
    List<String> warnings = FieldValidation.check(type, body, request);
    return FieldValidation.withWarnings(
        createObject(type, namespace, body, dryRun(request), ManagedFields.manager(request)),
        warnings);
  }

  /** Creates {@code body} (kind and namespace checked). */
  // manager: who gets the Update entry of managedFields, or null (server-side apply has its own).
  private ApiResponse createObject(
      ResourceType type, String namespace, ObjectNode body, boolean dryRun, String manager) {
    body = type.rules().toStorage(body);
    if (type.namespaced()) {
      ObjectNode ns = store.get("/namespaces", namespace);
      if (ns == null) {
        throw StatusError.namespaceNotFound(namespace);
      }
      if (Deletions.deleting(ns)) {
        throw new StatusError(
            403,
            "Forbidden",
            type.plural()
                + " \""
                + Json.name(body)
                + "\" is forbidden: unable to create new content in namespace "
                + namespace
                + " because it is being terminated",
            StatusError.details(Json.name(body), type.group(), type.plural()));
      }
    }
    ObjectNode meta = Json.metadata(body);
    if (!meta.path("resourceVersion").asText("").isEmpty()) {
      throw new StatusError(
          500,
          "InternalError",
          "Internal error occurred: resourceVersion should not be set on objects to be created",
          null);
    }
    String generateName = meta.path("generateName").asText("");
    boolean generated = meta.path("name").asText("").isEmpty() && !generateName.isEmpty();
    if (meta.path("name").asText("").isEmpty() && !generated) {
      throw StatusError.invalid(
          type,
          "",
          List.of(
              new StatusError.Cause(
                  "FieldValueRequired",
                  "metadata.name",
                  "Required value: name or generateName is required")));
    }
    meta.put("uid", UUID.randomUUID().toString());
    meta.put("creationTimestamp", ObjectMeta.timestamp(clock.instant()));
    meta.remove("deletionTimestamp");
    meta.remove("deletionGracePeriodSeconds");
    if (type.generation()) {
      meta.put("generation", 1);
    } else {
      meta.remove("generation");
    }
    if (type.statusSubresource()) {
      body.remove("status");
    }
    while (true) {
      // The name comes first: defaults and create rules may use it (a Job's job-name label).
      ObjectNode candidate = generated ? body.deepCopy() : body;
      if (generated) {
        synchronized (randomLock) {
          Json.metadata(candidate).put("name", ObjectMeta.generateName(generateName, random));
        }
      }
      type.rules().applyDefaults(candidate);
      type.rules().prepareForCreate(candidate);
      if (manager != null) {
        ManagedFields.recordUpdate(type, null, candidate, manager, false, clock.instant());
      }
      String name = Json.name(candidate);
      validate(type, name, candidate, true);
      String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
      ObjectStore.WriteResult result =
          write(
              dryRun,
              type.storageKey(),
              key,
              current -> {
                if (current != null) {
                  if (generated) {
                    return current; // the generated name is taken: no write, try another
                  }
                  throw StatusError.alreadyExists(type, name);
                }
                return candidate;
              });
      // Created: a new revision (the store keeps a frozen copy of the candidate), or, dry run,
      // the candidate itself; a taken generated name is neither.
      if (result.changed() || result.object() == candidate) {
        return ApiResponse.json(201, ObjectMeta.render(type, result.object()));
      }
    }
  }

  private static void validate(ResourceType type, String name, ObjectNode object, boolean create) {
    List<StatusError.Cause> causes = new ArrayList<>();
    if (create) {
      String problem = type.rules().nameRule().check(name);
      if (problem != null) {
        causes.add(
            new StatusError.Cause(
                "FieldValueInvalid",
                "metadata.name",
                "Invalid value: \"" + name + "\": " + problem));
      }
    }
    ObjectMeta.validateLabels(object, causes);
    type.rules().validate(object, causes);
    if (!causes.isEmpty()) {
      throw StatusError.invalid(type, name, causes);
    }
  }

  /** PUT of an object or its status. */
  public ApiResponse update(
      ResourceType type, String namespace, String name, Target target, ApiRequest request) {
    ObjectNode body = parseObject(request);
    checkKind(type, body);
    checkNamespace(type, namespace, body);
    String bodyName = Json.name(body);
    if (bodyName != null && !bodyName.equals(name)) {
      throw StatusError.badRequest(
          "the name of the object ("
              + bodyName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    Json.metadata(body).put("name", name);
    List<String> warnings = FieldValidation.check(type, body, request);
    return FieldValidation.withWarnings(
        commitUpdate(
            type,
            namespace,
            name,
            target,
            dryRun(request),
            ManagedFields.manager(request),
            current -> body),
        warnings);
  }

  /** PATCH of an object or its status. */
  public ApiResponse patch(
      ResourceType type, String namespace, String name, Target target, ApiRequest request) {
    JsonNode patch = parsePatch(type, request);
    String contentType = request.contentType();
    if (contentType.equals(APPLY)) {
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
            dryRun(request),
            ManagedFields.manager(request),
            current -> {
              JsonNode patched = applyPatch(contentType, ObjectMeta.render(type, current), patch);
              if (!patched.isObject()) {
                throw StatusError.badRequest("the patched object is not a JSON object");
              }
              ObjectNode result = (ObjectNode) patched;
              checkKind(type, result);
              checkNamespace(type, namespace, result);
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

  static final String APPLY = "application/apply-patch+yaml";

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
    String configName = Json.name(config);
    if (configName != null && !configName.equals(name)) {
      throw StatusError.badRequest(
          "the name of the object ("
              + configName
              + ") does not match the name on the URL ("
              + name
              + ")");
    }
    checkKind(type, config);
    checkNamespace(type, namespace, config);
    Json.metadata(config).put("name", name);
    List<String> warnings = FieldValidation.check(type, config, request);
    boolean dryRun = dryRun(request);
    String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
    if (target == Target.MAIN && store.get(type.storageKey(), key) == null) {
      ObjectNode created =
          ServerSideApply.apply(type, null, config, manager, force, clock.instant());
      return FieldValidation.withWarnings(
          createObject(type, namespace, created, dryRun, null), warnings);
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

  public static JsonNode parsePatch(ResourceType type, ApiRequest request) {
    String contentType = request.contentType();
    if (contentType == null) {
      throw StatusError.unsupportedMediaType(null, PATCH_MEDIA_TYPES);
    }
    switch (contentType) {
      case "application/json-patch+json", "application/merge-patch+json" -> {}
      case APPLY -> {
        try {
          JsonNode config = YAML.readTree(request.body());
          if (config == null || config.isMissingNode()) {
            throw StatusError.badRequest("empty apply configuration");
          }
          return config;
        } catch (IOException e) {
          throw StatusError.badRequest("error decoding YAML: " + e.getMessage());
        }
      }
      case "application/strategic-merge-patch+json" -> {
        if (type.custom()) {
          throw StatusError.unsupportedMediaType(
              contentType, "application/json-patch+json, application/merge-patch+json, " + APPLY);
        }
      }
      default -> throw StatusError.unsupportedMediaType(contentType, PATCH_MEDIA_TYPES);
    }
    try {
      JsonNode patch = Json.parse(request.body());
      if (patch == null) {
        throw StatusError.badRequest("empty patch");
      }
      return patch;
    } catch (IOException e) {
      throw StatusError.badRequest("error decoding patch: " + e.getMessage());
    }
  }

  public static JsonNode applyPatch(String contentType, JsonNode current, JsonNode patch) {
    return switch (contentType) {
      case "application/json-patch+json" -> Patches.jsonPatch(current, patch);
      case "application/strategic-merge-patch+json" ->
          StrategicMerge.apply(current.path("kind").asText(), current, patch);
      default -> {
        if (!patch.isObject()) {
          throw StatusError.badRequest("a merge patch must be a JSON object");
        }
        yield Patches.mergePatch(current, patch);
      }
    };
  }

  /** Computes the desired object from the current one. */
  @FunctionalInterface
  public interface Desired {
    ObjectNode from(ObjectNode current);
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
            dryRun,
            type.storageKey(),
            key,
            current -> {
              if (current == null) {
                throw StatusError.notFound(type, name);
              }
              ObjectNode body = type.rules().toStorage(desired.from(current));
              ObjectNode next = prepareUpdate(type, current, body, target);
              if (manager != null) {
                ManagedFields.recordUpdate(
                    type, current, next, manager, target == Target.STATUS, clock.instant());
              }
              return Deletions.finished(next) ? null : next;
            });
    return ApiResponse.json(200, ObjectMeta.render(type, result.object()));
  }

  /** The object to store for an update of {@code current} with {@code body}. */
  static ObjectNode prepareUpdate(
      ResourceType type, ObjectNode current, ObjectNode body, Target target) {
    String name = Json.name(current);
    String expected = Json.resourceVersion(body);
    if (expected != null
        && !expected.isEmpty()
        && !expected.equals(Json.resourceVersion(current))) {
      throw StatusError.conflict(type, name);
    }
    ObjectNode next;
    if (target == Target.STATUS) {
      next = current.deepCopy();
      JsonNode status = body.get("status");
      if (status == null) {
        next.remove("status");
      } else {
        next.set("status", status.deepCopy());
      }
    } else {
      next = body.deepCopy();
      if (type.statusSubresource()) {
        JsonNode status = current.get("status");
        if (status == null) {
          next.remove("status");
        } else {
          next.set("status", status.deepCopy());
        }
      }
      ObjectNode meta = Json.metadata(next);
      ObjectNode old = (ObjectNode) current.get("metadata");
      for (String immutable :
          List.of(
              "uid",
              "creationTimestamp",
              "deletionTimestamp",
              "deletionGracePeriodSeconds",
              "namespace",
              "generation")) {
        JsonNode value = old.get(immutable);
        if (value == null) {
          meta.remove(immutable);
        } else {
          meta.set(immutable, value);
        }
      }
    }
    Deletions.checkNoNewFinalizers(type, current, next);
    if (!next.path("metadata").has("managedFields")
        && current.path("metadata").has("managedFields")) {
      // As Kubernetes: a write that leaves managedFields out keeps them.
      Json.metadata(next).set("managedFields", current.path("metadata").path("managedFields"));
    }
    next.put("apiVersion", current.path("apiVersion").asText());
    Json.metadata(next).put("resourceVersion", Json.resourceVersion(current));
    if (target == Target.MAIN) {
      type.rules().prepareForUpdate(current, next);
    }
    type.rules().applyDefaults(next);
    validate(type, name, next, false);
    if (type.generation() && ObjectMeta.specChanged(current, next, type.statusSubresource())) {
      long generation = current.path("metadata").path("generation").asLong(0);
      Json.metadata(next).put("generation", generation + 1);
    }
    return next;
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
            options.dryRun(),
            type.storageKey(),
            key,
            current ->
                current == null ? null : Deletions.next(type, current, options, clock.instant()))
        .object();
  }
}
