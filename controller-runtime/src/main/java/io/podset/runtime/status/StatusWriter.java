package io.podset.runtime.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.runtime.client.ObjectWriter;
import io.podset.runtime.client.WrittenObject;
import io.podset.runtime.reconcile.TerminalReconcileException;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes the status of an object whose status belongs to one controller, as that controller should:
 * through the {@code /status} subresource, replacing the whole status with a JSON patch that checks
 * the object's uid but not its resourceVersion. A reconcile that computed the status from a cached
 * copy older than the server's object therefore never fails with a conflict, and a status computed
 * for an object that was deleted and created again under the same name never lands on the new one.
 *
 * <pre>{@code
 * StatusWriter statuses = StatusWriter.of(client);
 * statuses.replace(cachedPodSet, newStatus)
 *     .ifPresent(written -> writes.wrote(request, podSetInformer, written.resourceVersion()));
 * }</pre>
 *
 * <p>Typed reconcilers get this through {@code Context.updateStatus}, which also skips a write that
 * would change nothing. Thread-safe; calls block until the server answered.
 */
public final class StatusWriter {

  private final KubernetesClient client;
  private final ObjectWriter writer;

  private StatusWriter(KubernetesClient client, ObjectWriter writer) {
    this.client = client;
    this.writer = writer;
  }

  /**
   * A writer over {@code client}.
   *
   * @throws NullPointerException if {@code client} is null
   */
  public static StatusWriter of(KubernetesClient client) {
    Objects.requireNonNull(client, "client");
    return new StatusWriter(client, ObjectWriter.of(client));
  }

  /**
   * Replaces the status of {@code object} (its type, namespace, name and uid are used; a cached
   * copy will do) with {@code status}, serialised as the client serialises objects; a null status
   * writes an empty one.
   *
   * @return the object's name, uid and new resourceVersion; empty when the object is gone, or its
   *     name now belongs to a new object (whose own reconcile writes its status)
   * @throws NullPointerException if {@code object}, its metadata, name or uid is null
   * @throws TerminalReconcileException if the server has the object but no {@code /status} for it
   *     (a custom resource definition without the status subresource): retrying cannot help
   * @throws KubernetesClientException if the server refused the write for another reason or did not
   *     answer
   */
  public Optional<WrittenObject> replace(HasMetadata object, Object status) {
    Objects.requireNonNull(object, "object");
    ObjectMeta meta = Objects.requireNonNull(object.getMetadata(), "object.metadata");
    Objects.requireNonNull(meta.getName(), "object.metadata.name");
    String uid = Objects.requireNonNull(meta.getUid(), "object.metadata.uid");
    JsonNode value =
        status == null
            ? JsonNodeFactory.instance.objectNode()
            : client.getKubernetesSerialization().convertValue(status, JsonNode.class);
    ArrayNode patch = JsonNodeFactory.instance.arrayNode();
    patch.addObject().put("op", "test").put("path", "/metadata/uid").put("value", uid);
    ObjectNode add = patch.addObject().put("op", "add").put("path", "/status");
    add.set("value", value);
    try {
      return Optional.of(
          writer.patch(
              object.getClass(),
              meta.getNamespace(),
              meta.getName(),
              "status",
              PatchType.JSON,
              patch.toString()));
    } catch (KubernetesClientException e) {
      // 404: gone, or no /status; 422: the uid test failed (a new object of the same name).
      if ((e.getCode() == 404 || e.getCode() == 422) && !onServer(object)) {
        return Optional.empty();
      }
      if (e.getCode() == 404) {
        throw new TerminalReconcileException(
            "cannot write the status of "
                + object.getKind()
                + " "
                + meta.getName()
                + ": the server has the object but no /status for it; give its"
                + " CustomResourceDefinition the status subresource (subresources: {status: {}})",
            e);
      }
      throw e;
    }
  }

  /** True when the server has an object of that name with {@code cached}'s uid. */
  private boolean onServer(HasMetadata cached) {
    ObjectMeta meta = cached.getMetadata();
    var resources = client.resources(cached.getClass());
    HasMetadata live =
        meta.getNamespace() == null
            ? resources.withName(meta.getName()).get()
            : resources.inNamespace(meta.getNamespace()).withName(meta.getName()).get();
    return live != null && meta.getUid().equals(live.getMetadata().getUid());
  }
}
