package io.podset.testkit.conformance;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Deletion: finalizers and {@code deletionTimestamp}, preconditions, propagation policies and
 * owner-reference garbage collection, namespace termination, {@code dryRun=All}. Garbage collection
 * is asynchronous on a real cluster: assertions wait for it.
 */
class DeletionConformanceTest extends ConformanceTestBase {

  private ConfigMap configMap(String name, List<String> finalizers, OwnerReference... owners) {
    return client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withFinalizers(finalizers)
                .withOwnerReferences(owners)
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build())
        .create();
  }

  private ConfigMap getConfigMap(String name) {
    return client.configMaps().inNamespace(ns).withName(name).get();
  }

  private static OwnerReference ownedBy(HasMetadata owner, boolean block) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withBlockOwnerDeletion(block)
        .build();
  }

  private void removeFinalizers(String name) {
    client
        .configMaps()
        .inNamespace(ns)
        .withName(name)
        .edit(
            c -> {
              c.getMetadata().setFinalizers(new ArrayList<>());
              return c;
            });
  }

  @Test
  void finalizer_keepsObjectWithDeletionTimestamp_untilRemoved() {
    configMap("fin", List.of("example.com/hold"));
    client.configMaps().inNamespace(ns).withName("fin").delete();
    ConfigMap deleting = getConfigMap("fin");
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(deleting.getMetadata().getDeletionGracePeriodSeconds()).isZero();
    assertThat(deleting.getMetadata().getFinalizers()).containsExactly("example.com/hold");

    // No new finalizer once deletion started.
    var refused =
        apiError(
            () ->
                client
                    .configMaps()
                    .inNamespace(ns)
                    .withName("fin")
                    .edit(
                        c -> {
                          c.getMetadata().getFinalizers().add("example.com/late");
                          return c;
                        }));
    assertThat(refused.getCode()).isEqualTo(422);
    assertThat(refused.getMessage()).contains("finalizers");

    removeFinalizers("fin");
    assertThat(getConfigMap("fin")).isNull();
  }

  @Test
  void deletePreconditions_uidAndResourceVersion_conflict() {
    ConfigMap cm = configMap("pre", List.of());
    Raw wrongUid =
        raw(
            "DELETE",
            "/api/v1/namespaces/" + ns + "/configmaps/pre",
            "application/json",
            "{\"preconditions\":{\"uid\":\"00000000-0000-0000-0000-000000000000\"}}",
            Map.of());
    assertThat(wrongUid.code()).isEqualTo(409);
    Raw wrongRv =
        raw(
            "DELETE",
            "/api/v1/namespaces/" + ns + "/configmaps/pre",
            "application/json",
            "{\"preconditions\":{\"resourceVersion\":\"1\"}}",
            Map.of());
    assertThat(wrongRv.code()).isEqualTo(409);
    Raw right =
        raw(
            "DELETE",
            "/api/v1/namespaces/" + ns + "/configmaps/pre",
            "application/json",
            "{\"preconditions\":{\"uid\":\""
                + cm.getMetadata().getUid()
                + "\",\"resourceVersion\":\""
                + cm.getMetadata().getResourceVersion()
                + "\"}}",
            Map.of());
    assertThat(right.code()).isEqualTo(200);
    assertThat(getConfigMap("pre")).isNull();
  }

  @Test
  void background_collectsDependents_whoseOwnersAreAllGone() {
    ConfigMap owner = configMap("bg-owner", List.of());
    ConfigMap other = configMap("bg-other", List.of());
    configMap("bg-child", List.of(), ownedBy(owner, false));
    configMap("bg-shared", List.of(), ownedBy(owner, false), ownedBy(other, false));
    client
        .configMaps()
        .inNamespace(ns)
        .withName("bg-owner")
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    await("bg-child collected", () -> getConfigMap("bg-child") == null);
    await(
        "bg-shared keeps only its live owner",
        () -> getConfigMap("bg-shared").getMetadata().getOwnerReferences().size() == 1);
    assertThat(getConfigMap("bg-shared").getMetadata().getOwnerReferences().get(0).getName())
        .isEqualTo("bg-other");
  }

  @Test
  void unlinkedDependent_withEmptyOwnerReferences_stays() {
    ConfigMap owner = configMap("un-owner", List.of());
    configMap("un-child", List.of(), ownedBy(owner, true));
    Raw unlinked =
        raw(
            "PATCH",
            "/api/v1/namespaces/" + ns + "/configmaps/un-child",
            "application/json-patch+json",
            "[{\"op\":\"remove\",\"path\":\"/metadata/ownerReferences/0\"}]",
            Map.of());
    assertThat(unlinked.code()).isEqualTo(200);
    client.configMaps().inNamespace(ns).withName("un-owner").delete();
    await("un-owner gone", () -> getConfigMap("un-owner") == null);
    assertThat(getConfigMap("un-child")).isNotNull();
  }

  @Test
  void ownerInAnotherNamespace_countsAsAbsent() {
    String elsewhere = ns + "-other";
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(elsewhere).endMetadata().build())
        .create();
    try {
      ConfigMap foreign =
          client
              .configMaps()
              .inNamespace(elsewhere)
              .resource(
                  new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
              .create();
      configMap("cross-ns", List.of(), ownedBy(foreign, false));
      await("cross-namespace dependent collected", () -> getConfigMap("cross-ns") == null);
    } finally {
      client.namespaces().withName(elsewhere).delete();
    }
  }

  @Test
  void foreground_deletesBlockingDependentsFirst() {
    ConfigMap owner = configMap("fg-owner", List.of());
    configMap("fg-child", List.of("example.com/hold"), ownedBy(owner, true));
    client
        .configMaps()
        .inNamespace(ns)
        .withName("fg-owner")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    ConfigMap waiting = getConfigMap("fg-owner");
    assertThat(waiting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(waiting.getMetadata().getFinalizers()).contains("foregroundDeletion");
    await(
        "fg-child marked for deletion",
        () -> getConfigMap("fg-child").getMetadata().getDeletionTimestamp() != null);
    // The child's own finalizer keeps it, and it keeps the owner.
    assertThat(getConfigMap("fg-owner")).isNotNull();
    removeFinalizers("fg-child");
    await("fg-child gone", () -> getConfigMap("fg-child") == null);
    await("fg-owner gone after its dependents", () -> getConfigMap("fg-owner") == null);
  }

  @Test
  void orphan_keepsDependents_withoutTheOwnerReference() {
    ConfigMap owner = configMap("or-owner", List.of());
    configMap("or-child", List.of(), ownedBy(owner, true));
    client
        .configMaps()
        .inNamespace(ns)
        .withName("or-owner")
        .withPropagationPolicy(DeletionPropagation.ORPHAN)
        .delete();
    await("or-owner gone", () -> getConfigMap("or-owner") == null);
    ConfigMap child = getConfigMap("or-child");
    assertThat(child).isNotNull();
    assertThat(child.getMetadata().getOwnerReferences()).isEmpty();
  }

  @Test
  void namespaceDeletion_terminatesContents() {
    String doomed = ns + "-doomed";
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(doomed).endMetadata().build())
        .create();
    client
        .configMaps()
        .inNamespace(doomed)
        .resource(
            new ConfigMapBuilder().withNewMetadata().withName("content").endMetadata().build())
        .create();
    client.namespaces().withName(doomed).delete();
    await("namespace gone", () -> client.namespaces().withName(doomed).get() == null);
    assertThat(client.configMaps().inNamespace(doomed).list().getItems()).isEmpty();
  }

  @Test
  void dryRunAll_validatesButLeavesNoTrace() throws Exception {
    long before =
        Long.parseLong(
            client.configMaps().inNamespace(ns).list().getMetadata().getResourceVersion());
    try (WatchStream watch =
        new WatchStream(
            "/api/v1/namespaces/" + ns + "/configmaps?watch=true&resourceVersion=" + before)) {
      Raw created =
          raw(
              "POST",
              "/api/v1/namespaces/" + ns + "/configmaps?dryRun=All",
              "application/json",
              "{\"metadata\":{\"name\":\"dry\"},\"data\":{\"k\":\"v\"}}",
              Map.of());
      assertThat(created.code()).isEqualTo(201);
      assertThat(created.body().path("metadata").path("name").asText()).isEqualTo("dry");
      assertThat(getConfigMap("dry")).isNull();

      Raw invalid =
          raw(
              "POST",
              "/api/v1/namespaces/" + ns + "/configmaps?dryRun=All",
              "application/json",
              "{\"metadata\":{\"name\":\"Not_Valid\"}}",
              Map.of());
      assertThat(invalid.code()).isEqualTo(422);

      configMap("wet", List.of());
      Raw patched =
          raw(
              "PATCH",
              "/api/v1/namespaces/" + ns + "/configmaps/wet?dryRun=All",
              "application/merge-patch+json",
              "{\"data\":{\"k\":\"dry\"}}",
              Map.of());
      assertThat(patched.code()).isEqualTo(200);
      assertThat(patched.body().path("data").path("k").asText()).isEqualTo("dry");
      Raw deleted =
          raw(
              "DELETE",
              "/api/v1/namespaces/" + ns + "/configmaps/wet?dryRun=All",
              null,
              null,
              Map.of());
      assertThat(deleted.code()).isEqualTo(200);
      ConfigMap wet = getConfigMap("wet");
      assertThat(wet.getData()).containsEntry("k", "v");

      // Only the real create reached the watch.
      JsonNode event = watch.nextChange();
      assertThat(type(event)).isEqualTo("ADDED");
      assertThat(name(event)).isEqualTo("wet");
      client.configMaps().inNamespace(ns).withName("wet").delete();
      JsonNode gone = watch.nextChange();
      assertThat(type(gone)).isEqualTo("DELETED");
      assertThat(name(gone)).isEqualTo("wet");
    }
  }

  @Test
  void gracefulPodDeletion_setsDeletionTimestampInTheFuture() {
    Pod pod =
        client
            .pods()
            .inNamespace(ns)
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("graceful")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-that-does-not-run-a-kubelet")
                    .withTerminationGracePeriodSeconds(45L)
                    .addNewContainer()
                    .withName("app")
                    .withImage("busybox:1.36")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    client.pods().inNamespace(ns).withName("graceful").delete();
    Pod deleting = client.pods().inNamespace(ns).withName("graceful").get();
    assertThat(deleting.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(45L);
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    client.pods().inNamespace(ns).withName("graceful").withGracePeriod(0).delete();
    await(
        "force-deleted pod gone",
        () -> client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).get() == null);
  }
}
