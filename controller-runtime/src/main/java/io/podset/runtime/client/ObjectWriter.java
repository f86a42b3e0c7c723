package io.podset.runtime.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Creates and patches objects through a fabric8 client, returning only the written object's
 * identity and resourceVersion ({@link WrittenObject}) instead of the whole decoded object.
 *
 * <p>Requests go through the client's HTTP client: its interceptors (authentication, fencing,
 * recording in tests), retries and request timeout apply as to the client's typed operations.
 * Failures are those of the typed operations: a {@link KubernetesClientException} with the HTTP
 * code and the server's {@code Status} for a refused request, or with code 0 when no answer came.
 *
 * <pre>{@code
 * ObjectWriter writer = ObjectWriter.of(client);
 * WrittenObject pod = writer.create(newPod);
 * writer.patch(PodSet.class, "ns", "web", "status", PatchType.JSON, patch);
 * }</pre>
 *
 * <p>Thread-safe; calls block until the answer came.
 */
public interface ObjectWriter {

  /**
   * A writer over {@code client}.
   *
   * @throws NullPointerException if {@code client} is null
   */
  static ObjectWriter of(KubernetesClient client) {
    return new Fabric8ObjectWriter(client);
  }

  /**
   * Creates {@code object} (POST to its collection: {@code metadata.namespace} for a namespaced
   * type, which it must then have).
   *
   * @throws NullPointerException if {@code object} or its metadata is null
   * @throws IllegalArgumentException if the object's type is namespaced and it has no namespace
   * @throws KubernetesClientException if the server refused it or did not answer
   */
  WrittenObject create(HasMetadata object);

  /**
   * Patches the object {@code name} of {@code type} in {@code namespace} (null for a cluster-scoped
   * type), or its {@code subresource} (null for the object itself).
   *
   * @param patchType {@link PatchType#JSON}, {@link PatchType#JSON_MERGE} or {@link
   *     PatchType#STRATEGIC_MERGE}
   * @throws NullPointerException if {@code type}, {@code name}, {@code patchType} or {@code patch}
   *     is null
   * @throws IllegalArgumentException for {@link PatchType#SERVER_SIDE_APPLY} (it needs a field
   *     manager: use the typed operations)
   * @throws KubernetesClientException if the server refused it or did not answer
   */
  WrittenObject patch(
      Class<? extends HasMetadata> type,
      @Nullable String namespace,
      String name,
      @Nullable String subresource,
      PatchType patchType,
      String patch);

  /**
   * Deletes the object {@code name} of {@code type} in {@code namespace} (null for a cluster-scoped
   * type), with background propagation to its dependents and, when {@code uid} is not null, the
   * precondition that the object still has that uid.
   *
   * @return the object as the server answered (deleted, or terminating while finalizers remain):
   *     empty when it was already gone or the server answered with a Status only
   * @throws NullPointerException if {@code type} or {@code name} is null
   * @throws KubernetesClientException if the server refused it (409 when the uid differs) or did
   *     not answer
   */
  Optional<WrittenObject> delete(
      Class<? extends HasMetadata> type,
      @Nullable String namespace,
      String name,
      @Nullable String uid);
}
