package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Services, Secrets, ConfigMaps and Namespaces as the server writes them: Service defaults,
 * allocated cluster IPs and node ports (compared with kube-apiserver 1.34's answers once the
 * allocated values are checked and blanked), allocation conflicts, allocated values kept across
 * updates; {@code stringData} merged into a Secret's {@code data}; the namespace name label.
 */
class ServiceDefaultingConformanceTest extends ConformanceTestBase {

  private String services() {
    return "/api/v1/namespaces/" + ns + "/services";
  }

  private JsonNode createService(String name, String spec) {
    return createNamed(services(), "v1", "Service", name, "\"spec\":" + spec);
  }

  /** The spec with allocated values checked (IPv4 / node port range) and replaced by "*". */
  private static JsonNode blankAllocated(JsonNode service) {
    ObjectNode spec = (ObjectNode) service.path("spec").deepCopy();
    String ip = spec.path("clusterIP").asText("");
    if (!ip.isEmpty() && !ip.equals("None")) {
      assertThat(ip).matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
      assertThat(spec.path("clusterIPs").get(0).asText()).isEqualTo(ip);
      spec.put("clusterIP", "*");
      spec.putArray("clusterIPs").add("*");
    }
    for (JsonNode port : spec.path("ports")) {
      if (port.has("nodePort")) {
        assertThat(port.path("nodePort").asInt()).isBetween(30000, 32767);
        ((ObjectNode) port).put("nodePort", "*");
      }
    }
    return spec;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "cluster|{\"selector\":{\"app\":\"w\"},\"ports\":[{\"port\":80}]}"
            + "|{\"ports\":[{\"protocol\":\"TCP\",\"port\":80,\"targetPort\":80}],\"selector\":{\"app\":\"w\"},"
            + "\"clusterIP\":\"*\",\"clusterIPs\":[\"*\"],\"type\":\"ClusterIP\",\"sessionAffinity\":\"None\","
            + "\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\",\"internalTrafficPolicy\":\"Cluster\"}",
        "nodeport|{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"targetPort\":\"http\",\"name\":\"h\"}]}"
            + "|{\"ports\":[{\"name\":\"h\",\"protocol\":\"TCP\",\"port\":80,\"targetPort\":\"http\",\"nodePort\":\"*\"}],"
            + "\"clusterIP\":\"*\",\"clusterIPs\":[\"*\"],\"type\":\"NodePort\",\"sessionAffinity\":\"None\","
            + "\"externalTrafficPolicy\":\"Cluster\",\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\","
            + "\"internalTrafficPolicy\":\"Cluster\"}",
        "balancer|{\"type\":\"LoadBalancer\",\"sessionAffinity\":\"ClientIP\",\"ports\":[{\"port\":80,\"protocol\":\"UDP\"}]}"
            + "|{\"ports\":[{\"protocol\":\"UDP\",\"port\":80,\"targetPort\":80,\"nodePort\":\"*\"}],"
            + "\"clusterIP\":\"*\",\"clusterIPs\":[\"*\"],\"type\":\"LoadBalancer\",\"sessionAffinity\":\"ClientIP\","
            + "\"externalTrafficPolicy\":\"Cluster\",\"sessionAffinityConfig\":{\"clientIP\":{\"timeoutSeconds\":10800}},"
            + "\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\",\"allocateLoadBalancerNodePorts\":true,"
            + "\"internalTrafficPolicy\":\"Cluster\"}",
        "headless|{\"clusterIP\":\"None\",\"selector\":{\"a\":\"b\"},\"ports\":[{\"port\":80}]}"
            + "|{\"ports\":[{\"protocol\":\"TCP\",\"port\":80,\"targetPort\":80}],\"selector\":{\"a\":\"b\"},"
            + "\"clusterIP\":\"None\",\"clusterIPs\":[\"None\"],\"type\":\"ClusterIP\",\"sessionAffinity\":\"None\","
            + "\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\",\"internalTrafficPolicy\":\"Cluster\"}",
        "headless-no-selector|{\"clusterIP\":\"None\",\"ports\":[{\"port\":80}]}"
            + "|{\"ports\":[{\"protocol\":\"TCP\",\"port\":80,\"targetPort\":80}],"
            + "\"clusterIP\":\"None\",\"clusterIPs\":[\"None\"],\"type\":\"ClusterIP\",\"sessionAffinity\":\"None\","
            + "\"ipFamilies\":[\"IPv4\",\"IPv6\"],\"ipFamilyPolicy\":\"RequireDualStack\",\"internalTrafficPolicy\":\"Cluster\"}",
        "external|{\"type\":\"ExternalName\",\"externalName\":\"example.com\"}"
            + "|{\"type\":\"ExternalName\",\"sessionAffinity\":\"None\",\"externalName\":\"example.com\"}"
      })
  void service_getsDefaultsAndAllocatedAddresses(String name, String spec, String expected) {
    JsonNode service = createService(name, spec);

    assertSameJson(name + " spec", blankAllocated(service), expected);
    assertSameJson(name + " status", service.path("status"), "{\"loadBalancer\":{}}");
  }

  @Test
  void clusterIps_areDistinct_andATakenOneIs422() {
    Set<String> ips = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      ips.add(
          createService("distinct-" + i, "{\"ports\":[{\"port\":80}]}")
              .path("spec")
              .path("clusterIP")
              .asText());
    }
    assertThat(ips).hasSize(5);
    String taken = ips.iterator().next();

    Raw clash =
        raw(
            "POST",
            services(),
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"clash\"},"
                + "\"spec\":{\"clusterIP\":\""
                + taken
                + "\",\"ports\":[{\"port\":80}]}}",
            Map.of());

    assertThat(clash.code()).isEqualTo(422);
    assertThat(clash.body().path("message").asText())
        .isEqualTo(
            "Service \"clash\" is invalid: spec.clusterIPs: Invalid value: [\""
                + taken
                + "\"]: failed to allocate IP "
                + taken
                + ": provided IP is already allocated");
  }

  @Test
  void update_withoutAllocatedValues_keepsThem_andAChangedClusterIpIs422() {
    JsonNode service =
        createService("kept", "{\"type\":\"NodePort\",\"ports\":[{\"name\":\"h\",\"port\":80}]}");
    String path = services() + "/kept";
    ObjectNode update = (ObjectNode) service.deepCopy();
    ObjectNode spec = (ObjectNode) update.path("spec");
    spec.remove(java.util.List.of("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"));
    ((ObjectNode) spec.path("ports").get(0)).remove("nodePort");

    Raw kept = raw("PUT", path, "application/json", update.toString(), Map.of());

    assertThat(kept.code()).as(String.valueOf(kept.body())).isEqualTo(200);
    assertSameJson("kept spec", kept.body().path("spec"), service.path("spec").toString());

    ObjectNode moved = (ObjectNode) kept.body().deepCopy();
    ((ObjectNode) moved.path("spec"))
        .put("clusterIP", "10.0.0.7")
        .putArray("clusterIPs")
        .add("10.0.0.7");
    Raw refused = raw("PUT", path, "application/json", moved.toString(), Map.of());
    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.body().path("message").asText())
        .isEqualTo(
            "Service \"kept\" is invalid: spec.clusterIPs[0]: Invalid value: [\"10.0.0.7\"]: may"
                + " not change once set");
  }

  @Test
  void service_withSeveralPorts_needsANameOnEach() {
    Raw refused =
        raw(
            "POST",
            services(),
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"unnamed\"},"
                + "\"spec\":{\"ports\":[{\"port\":80},{\"name\":\"b\",\"port\":81}]}}",
            Map.of());

    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.body().path("message").asText())
        .isEqualTo("Service \"unnamed\" is invalid: spec.ports[0].name: Required value");
  }

  @Test
  void secret_stringData_isMergedIntoData() {
    JsonNode secret =
        create(
            "/api/v1/namespaces/" + ns + "/secrets",
            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"merged\"},"
                + "\"data\":{\"a\":\"YWFh\",\"b\":\"YmJi\"},\"stringData\":{\"b\":\"new\",\"c\":\"ccc\"}}");

    assertSameJson("data", secret.path("data"), "{\"a\":\"YWFh\",\"b\":\"bmV3\",\"c\":\"Y2Nj\"}");
    assertThat(secret.has("stringData")).isFalse();
    assertThat(secret.path("type").asText()).isEqualTo("Opaque");
    JsonNode read = get("/api/v1/namespaces/" + ns + "/secrets/merged").body();
    assertThat(read.has("stringData")).isFalse();
  }

  @Test
  void configMap_withoutData_staysWithoutData() {
    JsonNode cm =
        create(
            "/api/v1/namespaces/" + ns + "/configmaps",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"empty\"}}");

    assertThat(cm.has("data")).isFalse();
    assertThat(cm.has("binaryData")).isFalse();
  }

  @Test
  void namespace_isLabelledWithItsName() {
    JsonNode namespace = get("/api/v1/namespaces/" + ns).body();

    assertSameJson(
        "namespace labels",
        namespace.path("metadata").path("labels"),
        "{\"kubernetes.io/metadata.name\":\"" + ns + "\"}");
  }
}
