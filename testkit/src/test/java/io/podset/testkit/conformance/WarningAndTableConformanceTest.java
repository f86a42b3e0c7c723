package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What kubectl and client-go show besides objects: {@code Warning} headers for the unknown fields a
 * write drops under the default {@code fieldValidation=Warn} (and the 400 of {@code Strict}), and
 * the server-side table columns of pods, deployments, services and nodes, compared with
 * kube-apiserver 1.34.
 */
class WarningAndTableConformanceTest extends ConformanceTestBase {

  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

  /** The warnings of a response, one per warning whether sent in one header or several. */
  private static List<String> warnings(Raw response) {
    List<String> all = new ArrayList<>();
    for (String header : response.warnings()) {
      for (String warning : header.split("(?<=\"),\\s*(?=299 )")) {
        all.add(warning.trim());
      }
    }
    return all;
  }

  private static String unknown(String field) {
    return "299 - \"unknown field \\\"" + field + "\\\"\"";
  }

  @Test
  void unknownFields_ofABuiltInKind_areDroppedWithAWarningEach() {
    Raw created =
        raw(
            "POST",
            "/api/v1/namespaces/" + ns + "/configmaps",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"warned\","
                + "\"foo\":1},\"data\":{\"a\":\"b\"},\"bar\":{\"x\":1},\"baz\":2}",
            Map.of());

    assertThat(created.code()).isEqualTo(201);
    assertThat(warnings(created))
        .containsExactly(unknown("metadata.foo"), unknown("bar"), unknown("baz"));
    JsonNode stored = get("/api/v1/namespaces/" + ns + "/configmaps/warned").body();
    assertThat(stored.has("bar")).isFalse();
    assertThat(stored.path("metadata").has("foo")).isFalse();
    assertSameJson("data", stored.path("data"), "{\"a\":\"b\"}");
  }

  @Test
  void unknownNestedFields_andPatchedOnes_warn_ignoreIsSilent_strictRefuses() {
    Raw pod =
        raw(
            "POST",
            "/api/v1/namespaces/" + ns + "/pods",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"warned\"},\"spec\":"
                + "{\"containers\":[{\"name\":\"c\",\"image\":\"app:1\",\"bogus\":1}],\"nope\":true}}",
            Map.of());
    assertThat(pod.code()).isEqualTo(201);
    assertThat(warnings(pod))
        .containsExactly(unknown("spec.containers[0].bogus"), unknown("spec.nope"));
    assertThat(pod.body().path("spec").path("containers").get(0).has("bogus")).isFalse();

    String path = "/api/v1/namespaces/" + ns + "/pods/warned";
    String patch = "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"extra\":1}";
    Raw patched = raw("PATCH", path, "application/merge-patch+json", patch, Map.of());
    assertThat(patched.code()).isEqualTo(200);
    assertThat(warnings(patched)).containsExactly(unknown("extra"));

    Raw ignored =
        raw(
            "PATCH",
            path + "?fieldValidation=Ignore",
            "application/merge-patch+json",
            patch,
            Map.of());
    assertThat(ignored.code()).isEqualTo(200);
    assertThat(warnings(ignored)).isEmpty();

    Raw strict =
        raw(
            "POST",
            "/api/v1/namespaces/" + ns + "/configmaps?fieldValidation=Strict",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"strict\","
                + "\"foo\":1},\"bar\":{\"x\":1}}",
            Map.of());
    assertThat(strict.code()).isEqualTo(400);
    assertThat(strict.body().path("message").asText())
        .isEqualTo(
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error:"
                + " unknown field \"metadata.foo\", unknown field \"bar\"");
  }

  @Test
  void unknownFields_ofACustomResource_arePrunedWithAWarning() {
    ObjectNode body = JSON.valueToTree(widget("pruned", 1));
    ((ObjectNode) body.path("spec")).put("undeclared", "x");

    Raw created = raw("POST", widgetsPath(), "application/json", body.toString(), Map.of());

    assertThat(created.code()).isEqualTo(201);
    assertThat(warnings(created)).containsExactly(unknown("spec.undeclared"));
    assertThat(created.body().path("spec").has("undeclared")).isFalse();
  }

  private JsonNode table(String path) {
    Raw table = raw("GET", path, null, null, Map.of("Accept", TABLE + ",application/json"));
    assertThat(table.code()).isEqualTo(200);
    assertThat(table.body().path("kind").asText()).isEqualTo("Table");
    return table.body();
  }

  /** Column names, types and priorities, as {@code name:type:priority}. */
  private static List<String> columns(JsonNode table) {
    List<String> columns = new ArrayList<>();
    for (JsonNode c : table.path("columnDefinitions")) {
      columns.add(
          c.path("name").asText()
              + ":"
              + c.path("type").asText()
              + ":"
              + c.path("priority").asInt());
    }
    return columns;
  }

  private static JsonNode row(JsonNode table, String name) {
    for (JsonNode row : table.path("rows")) {
      if (row.path("cells").get(0).asText().equals(name)) {
        return row.path("cells");
      }
    }
    throw new AssertionError("no row " + name + " in " + table);
  }

  /** The cells with the age (a duration that moves) replaced by "AGE". */
  private static String cells(JsonNode cells, int ageColumn) {
    ArrayNode copy = (ArrayNode) cells.deepCopy();
    assertThat(copy.get(ageColumn).asText()).matches("\\d+[smhd].*");
    copy.set(ageColumn, copy.textNode("AGE"));
    return copy.toString();
  }

  @Test
  void podTable_showsReadyStatusRestartsAndAge() {
    createNamed(
        "/api/v1/namespaces/" + ns + "/pods",
        "v1",
        "Pod",
        "tabled",
        "\"spec\":{\"initContainers\":[{\"name\":\"i\",\"image\":\"app:1\"}],"
            + "\"containers\":[{\"name\":\"a\",\"image\":\"app:1\"},{\"name\":\"b\",\"image\":\"app:1\"}]}");

    JsonNode table = table("/api/v1/namespaces/" + ns + "/pods");

    assertThat(columns(table))
        .containsExactly(
            "Name:string:0",
            "Ready:string:0",
            "Status:string:0",
            "Restarts:string:0",
            "Age:string:0",
            "IP:string:1",
            "Node:string:1",
            "Nominated Node:string:1",
            "Readiness Gates:string:1");
    assertThat(cells(row(table, "tabled"), 4))
        .isEqualTo(
            "[\"tabled\",\"0/2\",\"Pending\",\"0\",\"AGE\",\"<none>\",\"<none>\",\"<none>\",\"<none>\"]");
  }

  @Test
  void deploymentAndServiceTables_haveTheServersColumnsAndCells() {
    createNamed(
        "/apis/apps/v1/namespaces/" + ns + "/deployments",
        "apps/v1",
        "Deployment",
        "tabled",
        "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"w\",\"tier\":\"a\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"w\",\"tier\":\"a\"}},\"spec\":"
            + "{\"containers\":[{\"name\":\"c\",\"image\":\"app:1\"},{\"name\":\"d\",\"image\":\"app:2\"}]}}}");
    JsonNode deployments = table("/apis/apps/v1/namespaces/" + ns + "/deployments");
    assertThat(columns(deployments))
        .containsExactly(
            "Name:string:0",
            "Ready:string:0",
            "Up-to-date:string:0",
            "Available:string:0",
            "Age:string:0",
            "Containers:string:1",
            "Images:string:1",
            "Selector:string:1");
    assertThat(cells(row(deployments, "tabled"), 4))
        .isEqualTo("[\"tabled\",\"0/2\",0,0,\"AGE\",\"c,d\",\"app:1,app:2\",\"app=w,tier=a\"]");

    String services = "/api/v1/namespaces/" + ns + "/services";
    createNamed(
        services,
        "v1",
        "Service",
        "headless",
        "\"spec\":{\"clusterIP\":\"None\","
            + "\"selector\":{\"app\":\"w\"},\"ports\":[{\"name\":\"h\",\"port\":80},{\"name\":\"d\",\"port\":53,"
            + "\"protocol\":\"UDP\"}]}");
    createNamed(
        services,
        "v1",
        "Service",
        "outside",
        "\"spec\":{\"type\":\"ExternalName\"," + "\"externalName\":\"example.com\"}");
    JsonNode table = table(services);
    assertThat(columns(table))
        .containsExactly(
            "Name:string:0",
            "Type:string:0",
            "Cluster-IP:string:0",
            "External-IP:string:0",
            "Port(s):string:0",
            "Age:string:0",
            "Selector:string:1");
    assertThat(cells(row(table, "headless"), 5))
        .isEqualTo(
            "[\"headless\",\"ClusterIP\",\"None\",\"<none>\",\"80/TCP,53/UDP\",\"AGE\",\"app=w\"]");
    assertThat(cells(row(table, "outside"), 5))
        .isEqualTo(
            "[\"outside\",\"ExternalName\",\"<none>\",\"example.com\",\"<none>\",\"AGE\",\"<none>\"]");
  }

  @Test
  void nodeTable_showsStatusRolesAndVersion() {
    String name = ns + "-node";
    JsonNode node =
        create(
            "/api/v1/nodes",
            "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"node-role.kubernetes.io/worker\":\"\",\"conformance\":\"table\"}},"
                + "\"spec\":{\"unschedulable\":true}}");
    ObjectNode withStatus = (ObjectNode) node.deepCopy();
    withStatus.set(
        "status",
        JSON.valueToTree(
            Map.of(
                "conditions", List.of(Map.of("type", "Ready", "status", "True")),
                "addresses", List.of(Map.of("type", "InternalIP", "address", "192.0.2.7")),
                "nodeInfo",
                    Map.of(
                        "kubeletVersion", "v1.34.4",
                        "osImage", "Test OS",
                        "kernelVersion", "6.1",
                        "containerRuntimeVersion", "containerd://2.0",
                        "machineID", "m",
                        "systemUUID", "s",
                        "bootID", "b",
                        "kubeProxyVersion", "",
                        "operatingSystem", "linux",
                        "architecture", "amd64"))));
    Raw updated =
        raw(
            "PUT",
            "/api/v1/nodes/" + name + "/status",
            "application/json",
            withStatus.toString(),
            Map.of());
    assertThat(updated.code()).as(String.valueOf(updated.body())).isEqualTo(200);

    JsonNode table = table("/api/v1/nodes?labelSelector=conformance%3Dtable");
    try {
      assertThat(columns(table))
          .containsExactly(
              "Name:string:0",
              "Status:string:0",
              "Roles:string:0",
              "Age:string:0",
              "Version:string:0",
              "Internal-IP:string:1",
              "External-IP:string:1",
              "OS-Image:string:1",
              "Kernel-Version:string:1",
              "Container-Runtime:string:1");
      assertThat(cells(row(table, name), 3))
          .isEqualTo(
              "[\""
                  + name
                  + "\",\"Ready,SchedulingDisabled\",\"worker\",\"AGE\",\"v1.34.4\",\"192.0.2.7\","
                  + "\"<none>\",\"Test OS\",\"6.1\",\"containerd://2.0\"]");
    } finally {
      raw("DELETE", "/api/v1/nodes/" + name, null, null, Map.of());
    }
  }
}
