package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a pod looks like after the server's defaulting and default admission plugins: the whole spec
 * and status of a pod created with few fields is compared with what kube-apiserver 1.34 returns
 * (the expected documents were taken from it), then QoS classes and pull policies case by case.
 */
class PodDefaultingConformanceTest extends ConformanceTestBase {

  private String pods() {
    return "/api/v1/namespaces/" + ns + "/pods";
  }

  private JsonNode createPod(String name, String spec) {
    return createNamed(pods(), "v1", "Pod", name, "\"spec\":" + spec);
  }

  @Test
  void pod_getsTheServersDefaults_requestsFromLimits_andGuaranteedQos() {
    JsonNode pod =
        createPod(
            "defaults",
            """
            {"containers":[{"name":"c","image":"busybox","ports":[{"containerPort":80}],
              "resources":{"limits":{"cpu":"0.5","memory":"128Mi"}},
              "livenessProbe":{"httpGet":{"port":80}},
              "env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}],
             "volumes":[{"name":"v"},{"name":"s","secret":{"secretName":"x"}}]}
            """);

    assertSameJson(
        "pod spec",
        pod.path("spec"),
        """
        {"volumes":[{"name":"v","emptyDir":{}},{"name":"s","secret":{"secretName":"x","defaultMode":420}}],
         "containers":[{"name":"c","image":"busybox","ports":[{"containerPort":80,"protocol":"TCP"}],
           "env":[{"name":"X","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],
           "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"500m","memory":"128Mi"}},
           "livenessProbe":{"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"timeoutSeconds":1,
             "periodSeconds":10,"successThreshold":1,"failureThreshold":3},
           "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
           "imagePullPolicy":"Always"}],
         "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
         "securityContext":{},"schedulerName":"default-scheduler",
         "tolerations":[
           {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
           {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
         "priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"}
        """);
    assertSameJson(
        "pod status", pod.path("status"), "{\"phase\":\"Pending\",\"qosClass\":\"Guaranteed\"}");
    assertThat(pod.path("metadata").path("generation").asLong()).isEqualTo(1);
  }

  @Test
  void pod_ownToleration_replacesTheDefaultOne_andUpdatesKeepPriority() {
    JsonNode pod =
        createPod(
            "tolerating",
            """
            {"containers":[{"name":"c","image":"app:1"}],
             "tolerations":[{"key":"node.kubernetes.io/unreachable","operator":"Exists",
               "effect":"NoExecute","tolerationSeconds":5}]}
            """);
    assertSameJson(
        "tolerations",
        pod.path("spec").path("tolerations"),
        """
        [{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":5},
         {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]
        """);

    ObjectNode update = (ObjectNode) pod.deepCopy();
    ((ObjectNode) update.path("spec")).remove(java.util.List.of("priority", "preemptionPolicy"));
    ((ObjectNode) update.path("metadata")).putObject("labels").put("updated", "yes");
    Raw updated =
        raw("PUT", pods() + "/tolerating", "application/json", update.toString(), Map.of());

    assertThat(updated.code()).as(updated.body().toString()).isEqualTo(200);
    assertThat(updated.body().path("spec").path("priority").asInt(-1)).isZero();
    assertThat(updated.body().path("spec").path("preemptionPolicy").asText())
        .isEqualTo("PreemptLowerPriority");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "guaranteed|{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},\"limits\":{\"cpu\":\"1000m\",\"memory\":\"1024Mi\"}}|Guaranteed",
        "burstable|{\"requests\":{\"cpu\":\"100m\"}}|Burstable",
        "limits-one|{\"limits\":{\"memory\":\"1Gi\"}}|Burstable",
        "unequal|{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}|Burstable",
        "zero|{\"requests\":{\"cpu\":\"0\"}}|BestEffort",
        "other|{\"requests\":{\"ephemeral-storage\":\"1Gi\"}}|BestEffort",
        "empty|{}|BestEffort"
      })
  void pod_qosClass_isComputedFromCpuAndMemory(String name, String resources, String qos) {
    JsonNode pod =
        createPod(
            "qos-" + name,
            "{\"containers\":[{\"name\":\"c\",\"image\":\"app:1\",\"resources\":"
                + resources
                + "}]}");

    assertThat(pod.path("status").path("qosClass").asText()).isEqualTo(qos);
  }

  @Test
  void pod_initContainersCount_andQuantitiesAreCanonical() {
    JsonNode pod =
        createPod(
            "init",
            """
            {"initContainers":[{"name":"i","image":"busybox:latest","resources":{"requests":{"cpu":"0.1"}}}],
             "containers":[{"name":"c","image":"localhost:5000/app",
               "resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"1","memory":"0.5Gi"}}}]}
            """);

    assertSameJson(
        "init container resources",
        pod.path("spec").path("initContainers").get(0).path("resources"),
        "{\"requests\":{\"cpu\":\"100m\"}}");
    assertSameJson(
        "container resources",
        pod.path("spec").path("containers").get(0).path("resources"),
        "{\"limits\":{\"memory\":\"1Gi\"},\"requests\":{\"cpu\":\"1\",\"memory\":\"512Mi\"}}");
    assertThat(pod.path("status").path("qosClass").asText()).isEqualTo("Burstable");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "busybox, Always",
    "busybox:latest, Always",
    "busybox:1.36, IfNotPresent",
    "localhost:5000/app, Always",
    "registry.example:5000/team/app:v2, IfNotPresent",
    "busybox@sha256:1111111111111111111111111111111111111111111111111111111111111111, IfNotPresent"
  })
  void container_imagePullPolicy_followsTheTag(String image, String policy) {
    String name = "pull-" + Integer.toHexString(image.hashCode());
    JsonNode pod =
        createPod(name, "{\"containers\":[{\"name\":\"c\",\"image\":\"" + image + "\"}]}");

    assertThat(pod.path("spec").path("containers").get(0).path("imagePullPolicy").asText())
        .isEqualTo(policy);
  }
}
