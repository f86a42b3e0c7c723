package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * Strategic merge patch on built-in kinds (merge keys, directives, finalizers as a set, 415 for
 * custom resources) and server-side apply (create, managedFields, conflicts, force).
 */
class PatchConformanceTest extends ConformanceTestBase {

  private static final String SMP = "application/strategic-merge-patch+json";
  private static final String APPLY = "application/apply-patch+yaml";

  private Deployment createDeployment(String name) {
    return client
        .apps()
        .deployments()
        .inNamespace(ns)
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector()
                .withMatchLabels(Map.of("app", name))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Map.of("app", name))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("registry.example/app:1")
                .addNewEnv()
                .withName("A")
                .withValue("1")
                .endEnv()
                .addNewEnv()
                .withName("B")
                .withValue("2")
                .endEnv()
                .endContainer()
                .addNewContainer()
                .withName("sidecar")
                .withImage("registry.example/sidecar:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
  }

  private String deploymentPath(String name) {
    return "/apis/apps/v1/namespaces/" + ns + "/deployments/" + name;
  }

  private static List<String> names(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false)
        .map(n -> n.path("name").asText())
        .toList();
  }

  @Test
  void strategicMerge_podContainerImage_byMergeKey() {
    client
        .pods()
        .inNamespace(ns)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("smp-pod")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage("registry.example/app:1")
                .endContainer()
                .addNewContainer()
                .withName("sidecar")
                .withImage("registry.example/sidecar:1")
                .endContainer()
                .endSpec()
                .build())
        .create();
    Raw patched =
        raw(
            "PATCH",
            "/api/v1/namespaces/" + ns + "/pods/smp-pod",
            SMP,
            "{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"registry.example/app:2\"}]}}",
            Map.of());
    assertThat(patched.code()).isEqualTo(200);
    JsonNode containers = patched.body().path("spec").path("containers");
    assertThat(names(containers)).containsExactly("app", "sidecar");
    assertThat(containers.get(0).path("image").asText()).isEqualTo("registry.example/app:2");
    assertThat(containers.get(1).path("image").asText()).isEqualTo("registry.example/sidecar:1");
  }

  @Test
  void strategicMerge_envByName_deleteAndReplaceDirectives() {
    createDeployment("smp");
    Raw merged =
        raw(
            "PATCH",
            deploymentPath("smp"),
            SMP,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"env\":["
                + "{\"name\":\"B\",\"value\":\"3\"},{\"name\":\"C\",\"value\":\"4\"}]}]}}}}",
            Map.of());
    assertThat(merged.code()).isEqualTo(200);
    var app =
        client
            .apps()
            .deployments()
            .inNamespace(ns)
            .withName("smp")
            .get()
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0);
    assertThat(app.getEnv())
        .extracting(EnvVar::getName, EnvVar::getValue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("A", "1"),
            org.assertj.core.groups.Tuple.tuple("B", "3"),
            org.assertj.core.groups.Tuple.tuple("C", "4"));

    // An item the live list lacks goes before the live-only items (apimachinery's
    // normalizeElementOrder), not after them.
    Raw prepended =
        raw(
            "PATCH",
            deploymentPath("smp"),
            SMP,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"env\":["
                + "{\"name\":\"D\",\"value\":\"5\"}]}]}}}}",
            Map.of());
    assertThat(prepended.code()).isEqualTo(200);
    assertThat(
            names(
                prepended
                    .body()
                    .path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .get(0)
                    .path("env")))
        .containsExactly("D", "A", "B", "C");

    Raw deleted =
        raw(
            "PATCH",
            deploymentPath("smp"),
            SMP,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":["
                + "{\"name\":\"sidecar\",\"$patch\":\"delete\"},"
                + "{\"name\":\"app\",\"env\":[{\"name\":\"Z\",\"value\":\"9\"},"
                + "{\"$patch\":\"replace\"}]}]}}}}",
            Map.of());
    assertThat(deleted.code()).isEqualTo(200);
    JsonNode containers =
        deleted.body().path("spec").path("template").path("spec").path("containers");
    assertThat(names(containers)).containsExactly("app");
    assertThat(names(containers.get(0).path("env"))).containsExactly("Z");
  }

  @Test
  void strategicMerge_finalizersMergeAsASet_andCustomResourcesGet415() {
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("fins")
                .withFinalizers("example.com/a")
                .endMetadata()
                .build())
        .create();
    Raw patched =
        raw(
            "PATCH",
            "/api/v1/namespaces/" + ns + "/configmaps/fins",
            SMP,
            "{\"metadata\":{\"finalizers\":[\"example.com/b\",\"example.com/a\"]}}",
            Map.of());
    assertThat(patched.code()).isEqualTo(200);
    assertThat(patched.body().path("metadata").path("finalizers"))
        .extracting(JsonNode::asText)
        .containsExactly("example.com/b", "example.com/a");
    raw(
        "PATCH",
        "/api/v1/namespaces/" + ns + "/configmaps/fins",
        "application/merge-patch+json",
        "{\"metadata\":{\"finalizers\":null}}",
        Map.of());

    createWidget("smp-widget", 1);
    Raw refused =
        raw("PATCH", widgetsPath() + "/smp-widget", SMP, "{\"spec\":{\"replicas\":2}}", Map.of());
    assertThat(refused.code()).isEqualTo(415);
  }

  private Raw apply(String name, String manager, boolean force, String value) {
    return raw(
        "PATCH",
        "/api/v1/namespaces/"
            + ns
            + "/configmaps/"
            + name
            + "?fieldManager="
            + manager
            + (force ? "&force=true" : ""),
        APPLY,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
            + name
            + "\ndata:\n  key: \""
            + value
            + "\"\n",
        Map.of());
  }

  private static JsonNode entryOf(JsonNode object, String manager) {
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry;
      }
    }
    return null;
  }

  @Test
  void serverSideApply_createsRecordsOwnership_conflictsAndForce() {
    Raw created = apply("ssa", "alice", false, "one");
    assertThat(created.code()).isEqualTo(201);
    JsonNode alice = entryOf(created.body(), "alice");
    assertThat(alice).isNotNull();
    assertThat(alice.path("operation").asText()).isEqualTo("Apply");
    assertThat(alice.path("fieldsV1").path("f:data").has("f:key")).isTrue();

    // The same value is no conflict; a different one is.
    assertThat(apply("ssa", "bob", false, "one").code()).isEqualTo(200);
    Raw conflict = apply("ssa", "bob", false, "two");
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.body().path("reason").asText()).isEqualTo("Conflict");
    assertThat(conflict.body().path("message").asText())
        .contains("conflict with \"alice\"")
        .contains(".data.key");

    Raw forced = apply("ssa", "bob", true, "two");
    assertThat(forced.code()).isEqualTo(200);
    assertThat(forced.body().path("data").path("key").asText()).isEqualTo("two");
    assertThat(entryOf(forced.body(), "bob").path("fieldsV1").path("f:data").has("f:key")).isTrue();
    JsonNode aliceAfter = entryOf(forced.body(), "alice");
    assertThat(aliceAfter == null || !aliceAfter.path("fieldsV1").path("f:data").has("f:key"))
        .isTrue();

    // Now alice conflicts with bob.
    Raw back = apply("ssa", "alice", false, "three");
    assertThat(back.code()).isEqualTo(409);
    assertThat(back.body().path("message").asText()).contains("conflict with \"bob\"");
  }

  @Test
  void serverSideApply_requiresFieldManager() {
    Raw missing =
        raw(
            "PATCH",
            "/api/v1/namespaces/" + ns + "/configmaps/no-manager",
            APPLY,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: no-manager\n",
            Map.of());
    assertThat(missing.code()).isEqualTo(422);
    assertThat(missing.body().path("message").asText()).contains("fieldManager");
  }
}
