package io.podset.testkit.internal.write;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ObjectMeta;
import io.podset.testkit.internal.resource.ResourceType;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.store.ObjectStore;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * Creates: the namespace must exist and not be terminating, the server's metadata (uid, creation
 * time, generation), a generated name retried until it is free, the kind's defaults, create rules
 * and validation, and the {@code Update} entry of managedFields.
 */
final class Creates {

  private final ObjectStore store;
  private final Clock clock;
  private final Object randomLock = new Object();
  // Guarded by randomLock.
  private final Random random;

  Creates(ObjectStore store, Clock clock, Random random) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** Creates {@code body} (kind and namespace checked). */
  // manager: who gets the Update entry of managedFields, or null (server-side apply has its own).
  ApiResponse create(
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
      Updates.validate(type, name, candidate, null);
      String key = ObjectStore.key(type.namespaced() ? namespace : null, name);
      ObjectStore.WriteResult result =
          ObjectWrites.write(
              store,
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
        return ObjectWrites.answer(201, type, result);
      }
    }
  }
}
