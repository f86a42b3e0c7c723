package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in kinds operators commonly own or read besides pods and workloads (jobs, disruption
 * budgets, autoscalers, ingresses, storage, webhook configurations, ...): each is discovered with
 * the real server's scope and short names, round-trips through create, get, list and delete, and
 * gets a {@code metadata.generation} exactly where the real server sets one.
 */
class BuiltinKindsConformanceTest extends ConformanceTestBase {

  private static final String CONTAINERS =
      "\"containers\":[{\"name\":\"main\",\"image\":\"registry.example/app:1\"}]";

  /** One kind: where it is served, a valid body (no metadata), and whether it has generations. */
  record Kind(
      String apiVersion,
      String plural,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      boolean generation,
      String body) {

    String path(String ns) {
      String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
      return namespaced ? prefix + "/namespaces/" + ns + "/" + plural : prefix + "/" + plural;
    }

    @Override
    public String toString() {
      return apiVersion + " " + plural;
    }
  }

  static Stream<Kind> kinds() {
    String podTemplate =
        "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"restartPolicy\":\"Never\","
            + CONTAINERS
            + "}}";
    return Stream.of(
        new Kind(
            "v1",
            "persistentvolumeclaims",
            "PersistentVolumeClaim",
            true,
            List.of("pvc"),
            false,
            "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}"),
        new Kind(
            "v1",
            "persistentvolumes",
            "PersistentVolume",
            false,
            List.of("pv"),
            false,
            "\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},\"accessModes\":[\"ReadWriteOnce\"],"
                + "\"hostPath\":{\"path\":\"/tmp/conformance\"}}"),
        new Kind("v1", "endpoints", "Endpoints", true, List.of("ep"), false, "\"subsets\":[]"),
        new Kind(
            "v1",
            "resourcequotas",
            "ResourceQuota",
            true,
            List.of("quota"),
            false,
            "\"spec\":{\"hard\":{\"pods\":\"10\"}}"),
        new Kind(
            "v1",
            "limitranges",
            "LimitRange",
            true,
            List.of("limits"),
            false,
            "\"spec\":{\"limits\":[{\"type\":\"Container\",\"max\":{\"cpu\":\"1\"}}]}"),
        new Kind(
            "v1",
            "replicationcontrollers",
            "ReplicationController",
            true,
            List.of("rc"),
            true,
            "\"spec\":{\"replicas\":0,\"selector\":{\"app\":\"web\"},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{"
                + CONTAINERS
                + "}}}"),
        new Kind(
            "apps/v1",
            "controllerrevisions",
            "ControllerRevision",
            true,
            List.of(),
            false,
            "\"revision\":1,\"data\":{\"spec\":{}}"),
        new Kind(
            "batch/v1",
            "jobs",
            "Job",
            true,
            List.of(),
            true,
            "\"spec\":{\"suspend\":true,\"template\":" + podTemplate + "}"),
        new Kind(
            "batch/v1",
            "cronjobs",
            "CronJob",
            true,
            List.of("cj"),
            true,
            "\"spec\":{\"schedule\":\"*/5 * * * *\",\"suspend\":true,"
                + "\"jobTemplate\":{\"spec\":{\"template\":"
                + podTemplate
                + "}}}"),
        new Kind(
            "policy/v1",
            "poddisruptionbudgets",
            "PodDisruptionBudget",
            true,
            List.of("pdb"),
            true,
            "\"spec\":{\"minAvailable\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}}}"),
        new Kind(
            "autoscaling/v2",
            "horizontalpodautoscalers",
            "HorizontalPodAutoscaler",
            true,
            List.of("hpa"),
            false,
            "\"spec\":{\"scaleTargetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                + "\"name\":\"web\"},\"minReplicas\":1,\"maxReplicas\":3}"),
        new Kind(
            "networking.k8s.io/v1",
            "ingresses",
            "Ingress",
            true,
            List.of("ing"),
            true,
            "\"spec\":{\"defaultBackend\":{\"service\":{\"name\":\"web\",\"port\":{\"number\":80}}}}"),
        new Kind(
            "networking.k8s.io/v1",
            "ingressclasses",
            "IngressClass",
            false,
            List.of(),
            true,
            "\"spec\":{\"controller\":\"example.com/ingress\"}"),
        new Kind(
            "networking.k8s.io/v1",
            "networkpolicies",
            "NetworkPolicy",
            true,
            List.of("netpol"),
            true,
            "\"spec\":{\"podSelector\":{}}"),
        new Kind(
            "discovery.k8s.io/v1",
            "endpointslices",
            "EndpointSlice",
            true,
            List.of(),
            true,
            "\"addressType\":\"IPv4\",\"endpoints\":[]"),
        new Kind(
            "scheduling.k8s.io/v1",
            "priorityclasses",
            "PriorityClass",
            false,
            List.of("pc"),
            true,
            "\"value\":1000"),
        new Kind(
            "storage.k8s.io/v1",
            "storageclasses",
            "StorageClass",
            false,
            List.of("sc"),
            false,
            "\"provisioner\":\"example.com/fake\""),
        new Kind(
            "admissionregistration.k8s.io/v1",
            "validatingwebhookconfigurations",
            "ValidatingWebhookConfiguration",
            false,
            List.of(),
            true,
            "\"webhooks\":[]"),
        new Kind(
            "admissionregistration.k8s.io/v1",
            "mutatingwebhookconfigurations",
            "MutatingWebhookConfiguration",
            false,
            List.of(),
            true,
            "\"webhooks\":[]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void kind_isDiscoveredWithItsScopeAndShortNames(Kind kind) {
    List<APIResource> resources =
        client.getApiResources(kind.apiVersion()).getResources().stream()
            .filter(r -> r.getName().equals(kind.plural()))
            .toList();
    assertThat(resources).as(kind + " in discovery").hasSize(1);
    APIResource resource = resources.get(0);
    assertThat(resource.getKind()).isEqualTo(kind.kind());
    assertThat(resource.getNamespaced()).isEqualTo(kind.namespaced());
    assertThat(resource.getShortNames() == null ? List.of() : resource.getShortNames())
        .containsExactlyInAnyOrderElementsOf(kind.shortNames());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void kind_roundTripsCreateGetListDelete_withGenerationWhereTheServerSetsOne(Kind kind) {
    // Cluster-scoped names are shared by every namespace: the class's namespace makes them unique.
    String name = ns + "-" + kind.kind().toLowerCase(java.util.Locale.ROOT);
    String body =
        "{\"apiVersion\":\""
            + kind.apiVersion()
            + "\",\"kind\":\""
            + kind.kind()
            + "\",\"metadata\":{\"name\":\""
            + name
            + "\",\"labels\":{\"conformance\":\"builtin\"}},"
            + kind.body()
            + "}";

    Raw created = raw("POST", kind.path(ns), "application/json", body, Map.of());
    assertThat(created.code()).as(kind + " create: " + created.body()).isEqualTo(201);
    JsonNode meta = created.body().path("metadata");
    assertThat(created.body().path("kind").asText()).isEqualTo(kind.kind());
    assertThat(created.body().path("apiVersion").asText()).isEqualTo(kind.apiVersion());
    assertThat(meta.path("uid").asText()).isNotEmpty();
    if (kind.generation()) {
      assertThat(meta.path("generation").asLong()).as(kind + " generation").isEqualTo(1);
    } else {
      assertThat(meta.has("generation")).as(kind + " has no generation").isFalse();
    }

    Raw read = get(kind.path(ns) + "/" + name);
    assertThat(read.code()).isEqualTo(200);
    assertThat(read.body().path("metadata").path("resourceVersion").asText())
        .isEqualTo(meta.path("resourceVersion").asText());

    Raw list = get(kind.path(ns) + "?labelSelector=conformance%3Dbuiltin");
    assertThat(list.code()).isEqualTo(200);
    assertThat(list.body().path("kind").asText()).isEqualTo(kind.kind() + "List");
    assertThat(list.body().path("items"))
        .extracting(item -> item.path("metadata").path("name").asText())
        .contains(name);

    Raw deleted =
        raw(
            "DELETE",
            kind.path(ns) + "/" + name + "?propagationPolicy=Background",
            null,
            null,
            Map.of());
    assertThat(deleted.code()).as(kind + " delete").isIn(200, 202);
    Raw after = get(kind.path(ns) + "/" + name);
    // A real server's storage-protection admission puts finalizers on claims and volumes, which
    // its controllers remove once unused: there, a deleted claim is only marked. The fake adds
    // none.
    if (after.code() != 404) {
      assertThat(after.body().path("metadata").path("deletionTimestamp").asText())
          .as(kind + " after delete")
          .isNotEmpty();
      assertThat(kind.plural()).isIn("persistentvolumeclaims", "persistentvolumes");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orphaningKinds")
  void deleteWithoutPolicy_orphansTheDependentsOfJobsAndReplicationControllers(Kind kind) {
    String name = "orphaning-" + kind.plural();
    String body =
        "{\"apiVersion\":\""
            + kind.apiVersion()
            + "\",\"kind\":\""
            + kind.kind()
            + "\",\"metadata\":{\"name\":\""
            + name
            + "\",\"finalizers\":[\"conformance.podset.io/hold\"]},"
            + kind.body()
            + "}";
    assertThat(raw("POST", kind.path(ns), "application/json", body, Map.of()).code())
        .isEqualTo(201);

    Raw deleted = raw("DELETE", kind.path(ns) + "/" + name, null, null, Map.of());

    // The held object stays, marked: its finalizers show the policy the server chose.
    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.body().path("metadata").path("finalizers"))
        .extracting(JsonNode::asText)
        .contains("orphan", "conformance.podset.io/hold");
  }

  static Stream<Kind> orphaningKinds() {
    return kinds().filter(k -> List.of("jobs", "replicationcontrollers").contains(k.plural()));
  }

  @Test
  void deploymentDeleteWithoutPolicy_deletesItsDependentsInTheBackground() {
    String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
    String body =
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"held\","
            + "\"finalizers\":[\"conformance.podset.io/hold\"]},\"spec\":{\"replicas\":0,"
            + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":"
            + "{\"labels\":{\"app\":\"web\"}},\"spec\":{"
            + CONTAINERS
            + "}}}}";
    assertThat(raw("POST", path, "application/json", body, Map.of()).code()).isEqualTo(201);

    Raw deleted = raw("DELETE", path + "/held", null, null, Map.of());

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.body().path("metadata").path("finalizers"))
        .extracting(JsonNode::asText)
        .containsExactly("conformance.podset.io/hold");
  }

  @Test
  void job_typedClient_createsReadsAndUpdatesStatus() {
    Job job =
        new JobBuilder()
            .withNewMetadata()
            .withName("typed")
            .endMetadata()
            .withNewSpec()
            .withSuspend(true)
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", "typed")
            .endMetadata()
            .withNewSpec()
            .withRestartPolicy("Never")
            .addNewContainer()
            .withName("main")
            .withImage("registry.example/app:1")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    client.batch().v1().jobs().inNamespace(ns).resource(job).create();

    Job withStatus =
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(ns)
            .withName("typed")
            .editStatus(
                j -> {
                  j.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatus());
                  j.getStatus().setActive(1);
                  return j;
                });

    assertThat(withStatus.getStatus().getActive()).isEqualTo(1);
    assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1);
    Job read = client.batch().v1().jobs().inNamespace(ns).withName("typed").get();
    assertThat(read.getSpec().getSuspend()).isTrue();
    assertThat(read.getSpec().getTemplate().getSpec().getContainers())
        .extracting(c -> c.getImage())
        .containsExactly("registry.example/app:1");
  }

  @Test
  void horizontalPodAutoscaler_groupPrefersV2() {
    ObjectNode group = (ObjectNode) get("/apis/autoscaling").body();
    assertThat(group.path("preferredVersion").path("version").asText()).isEqualTo("v2");
  }
}
