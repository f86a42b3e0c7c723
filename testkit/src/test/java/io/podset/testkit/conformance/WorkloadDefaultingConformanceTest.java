package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The defaults of the workloads operators create (Deployments, ReplicaSets, StatefulSets,
 * DaemonSets, ReplicationControllers, PodTemplates, Jobs, CronJobs), created with only what they
 * require: spec and status are compared whole with what kube-apiserver 1.34 returns (the expected
 * documents were taken from it).
 */
class WorkloadDefaultingConformanceTest extends ConformanceTestBase {

  private static final String TEMPLATE_SPEC =
      """
      {"containers":[{"name":"c","image":"nginx:1.25","resources":{},
        "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
        "imagePullPolicy":"IfNotPresent"}],
       "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
       "securityContext":{},"schedulerName":"default-scheduler"}
      """;

  private static final String MINIMAL =
      "\"selector\":{\"matchLabels\":{\"app\":\"w\"}},\"template\":{\"metadata\":{\"labels\":"
          + "{\"app\":\"w\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.25\"}]}}";

  private JsonNode createApps(String plural, String kind, String name) {
    return createNamed(
        "/apis/apps/v1/namespaces/" + ns + "/" + plural,
        "apps/v1",
        kind,
        name,
        "\"spec\":{" + MINIMAL + "}");
  }

  private static String withTemplate(String specFields) {
    return "{\"selector\":{\"matchLabels\":{\"app\":\"w\"}},\"template\":{\"metadata\":{\"labels\":"
        + "{\"app\":\"w\"}},\"spec\":"
        + TEMPLATE_SPEC
        + "}"
        + specFields
        + "}";
  }

  @Test
  void deployment_getsReplicasStrategyLimitsAndTemplateDefaults() {
    JsonNode d = createApps("deployments", "Deployment", "web");

    assertSameJson(
        "deployment spec",
        d.path("spec"),
        withTemplate(
            ",\"replicas\":1,\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":"
                + "{\"maxUnavailable\":\"25%\",\"maxSurge\":\"25%\"}},\"revisionHistoryLimit\":10,"
                + "\"progressDeadlineSeconds\":600"));
    assertSameJson("deployment status", d.path("status"), "{}");
  }

  @Test
  void replicaSet_getsReplicasAndAZeroStatus() {
    JsonNode rs = createApps("replicasets", "ReplicaSet", "web");

    assertSameJson("replicaset spec", rs.path("spec"), withTemplate(",\"replicas\":1"));
    assertSameJson("replicaset status", rs.path("status"), "{\"replicas\":0}");
  }

  @Test
  void statefulSet_getsPoliciesStrategyAndRetention() {
    JsonNode ss = createApps("statefulsets", "StatefulSet", "web");

    assertSameJson(
        "statefulset spec",
        ss.path("spec"),
        withTemplate(
            ",\"replicas\":1,\"serviceName\":\"\",\"podManagementPolicy\":\"OrderedReady\","
                + "\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0}},"
                + "\"revisionHistoryLimit\":10,\"persistentVolumeClaimRetentionPolicy\":"
                + "{\"whenDeleted\":\"Retain\",\"whenScaled\":\"Retain\"}"));
    assertSameJson(
        "statefulset status", ss.path("status"), "{\"replicas\":0,\"availableReplicas\":0}");
  }

  @Test
  void daemonSet_getsStrategy_andTemplateGenerationAnnotationThatTemplateChangesBump() {
    JsonNode ds = createApps("daemonsets", "DaemonSet", "agent");

    assertSameJson(
        "daemonset spec",
        ds.path("spec"),
        withTemplate(
            ",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":"
                + "{\"maxUnavailable\":1,\"maxSurge\":0}},\"revisionHistoryLimit\":10"));
    assertSameJson(
        "daemonset status",
        ds.path("status"),
        "{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0,"
            + "\"numberReady\":0}");
    assertThat(annotation(ds)).isEqualTo("1");

    String path = "/apis/apps/v1/namespaces/" + ns + "/daemonsets/agent";
    ObjectNode labelsOnly = (ObjectNode) ds.deepCopy();
    ((ObjectNode) labelsOnly.path("metadata")).putObject("labels").put("x", "y");
    JsonNode relabelled = put(path, labelsOnly);
    assertThat(annotation(relabelled)).as("a label change keeps it").isEqualTo("1");

    ObjectNode newImage = (ObjectNode) relabelled.deepCopy();
    ((ObjectNode) newImage.path("spec").path("template").path("spec").path("containers").get(0))
        .put("image", "nginx:1.26");
    ((ObjectNode) newImage.path("metadata")).remove("annotations");
    assertThat(annotation(put(path, newImage))).as("a template change bumps it").isEqualTo("2");
  }

  private static String annotation(JsonNode ds) {
    return ds.path("metadata")
        .path("annotations")
        .path("deprecated.daemonset.template.generation")
        .asText();
  }

  private JsonNode put(String path, JsonNode body) {
    Raw updated = raw("PUT", path, "application/json", body.toString(), Map.of());
    assertThat(updated.code()).as(String.valueOf(updated.body())).isEqualTo(200);
    return updated.body();
  }

  @Test
  void replicationController_takesSelectorAndLabelsFromItsTemplate() {
    JsonNode rc =
        create(
            "/api/v1/namespaces/" + ns + "/replicationcontrollers",
            "{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\",\"metadata\":{\"name\":\"rc\"},"
                + "\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"app\":\"w\"}},\"spec\":"
                + "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.25\"}]}}}}");

    assertSameJson(
        "rc spec",
        rc.path("spec"),
        "{\"replicas\":1,\"selector\":{\"app\":\"w\"},\"template\":{\"metadata\":{\"labels\":"
            + "{\"app\":\"w\"}},\"spec\":"
            + TEMPLATE_SPEC
            + "}}");
    assertSameJson("rc labels", rc.path("metadata").path("labels"), "{\"app\":\"w\"}");
    assertSameJson("rc status", rc.path("status"), "{\"replicas\":0}");
  }

  @Test
  void podTemplate_getsTemplateDefaultsAndAGeneration() {
    JsonNode pt =
        create(
            "/api/v1/namespaces/" + ns + "/podtemplates",
            "{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\",\"metadata\":{\"name\":\"pt\"},"
                + "\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.25\"}]}}}");

    assertSameJson(
        "template", pt.path("template"), "{\"metadata\":{},\"spec\":" + TEMPLATE_SPEC + "}");
    assertThat(pt.path("metadata").path("generation").asLong()).isEqualTo(1);
  }

  @Test
  void job_getsCompletionsBackoffSelectorAndLabels() {
    JsonNode job =
        create(
            "/apis/batch/v1/namespaces/" + ns + "/jobs",
            "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"generateName\":\"once-\"},"
                + "\"spec\":{\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.25\"}]}}}}");
    String uid = job.path("metadata").path("uid").asText();
    String name = job.path("metadata").path("name").asText();
    String labels =
        "{\"batch.kubernetes.io/controller-uid\":\""
            + uid
            + "\",\"batch.kubernetes.io/job-name\":\""
            + name
            + "\",\"controller-uid\":\""
            + uid
            + "\",\"job-name\":\""
            + name
            + "\"}";

    assertSameJson(
        "job spec",
        job.path("spec"),
        "{\"parallelism\":1,\"completions\":1,\"backoffLimit\":6,\"selector\":{\"matchLabels\":"
            + "{\"batch.kubernetes.io/controller-uid\":\""
            + uid
            + "\"}},\"manualSelector\":false,\"template\":{\"metadata\":{\"labels\":"
            + labels
            + "},\"spec\":"
            + TEMPLATE_SPEC.replace("\"Always\"", "\"Never\"")
            + "},\"completionMode\":\"NonIndexed\",\"suspend\":true,"
            + "\"podReplacementPolicy\":\"TerminatingOrFailed\"}");
    assertSameJson("job labels", job.path("metadata").path("labels"), labels);
    assertSameJson("job status", job.path("status"), "{}");
  }

  @Test
  void cronJob_getsPolicyLimits_andTemplateDefaultsOnly() {
    JsonNode cj =
        create(
            "/apis/batch/v1/namespaces/" + ns + "/cronjobs",
            "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":{\"name\":\"cj\"},"
                + "\"spec\":{\"schedule\":\"*/5 * * * *\",\"jobTemplate\":{\"spec\":{\"template\":"
                + "{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
                + "\"image\":\"nginx:1.25\"}]}}}}}}");

    assertSameJson(
        "cronjob spec",
        cj.path("spec"),
        "{\"schedule\":\"*/5 * * * *\",\"concurrencyPolicy\":\"Allow\",\"suspend\":false,"
            + "\"jobTemplate\":{\"metadata\":{},\"spec\":{\"template\":{\"metadata\":{},\"spec\":"
            + TEMPLATE_SPEC.replace("\"Always\"", "\"Never\"")
            + "}}},\"successfulJobsHistoryLimit\":3,\"failedJobsHistoryLimit\":1}");
    assertSameJson("cronjob status", cj.path("status"), "{}");
  }
}
