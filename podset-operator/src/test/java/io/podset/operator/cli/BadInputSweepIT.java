package io.podset.operator.cli;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetCondition;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.api.v1alpha1.PodSetStatus;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.manager.ManagerBuilder;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.KubeletOptions;
import io.podset.testkit.RequestMatcher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bad-input sweep: malformed and hostile PodSets sent to the fake API server (raw HTTP and
 * kubectl) while the operator runs through its real wiring. Every bad input must be refused by the
 * server with a message naming the field, or accepted and answered by the operator with a {@code
 * ReplicaFailure} condition naming the field; nothing crashes, accepted objects are not lost, and
 * well-formed PodSets next to the bad ones converge. The outcome of every input is printed as a
 * report.
 */
class BadInputSweepIT {

  private static final String NAMESPACE = "sweep";
  private static final String PODSETS =
      "/apis/app.example.com/v1alpha1/namespaces/" + NAMESPACE + "/podsets";

  private static FakeApiServer server;
  private static KubernetesClient admin;
  private static Manager manager;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient http = HttpClient.newHttpClient();
  private static final List<String> report = new ArrayList<>();

  @BeforeAll
  static void start() {
    server = FakeApiServer.builder().kubelet(KubeletOptions.immediate()).start();
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    admin = server.client();
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    manager =
        Manager.builder(server.newClient())
            .healthPort(ManagerBuilder.ANY_FREE_PORT)
            .metricsPort(0)
            .build();
    PodSetControllers.register(manager, List.of(NAMESPACE), 2);
    manager.start();
  }

  @AfterAll
  static void stop() {
    System.out.println("Bad-input sweep report (" + report.size() + " inputs):");
    report.forEach(line -> System.out.println("  " + line));
    manager.close();
    server.close();
  }

  @Test
  void badInputs_refusedOrFlagged_namingTheField_andGoodPodSetsStillConverge() throws Exception {
    createPodSet("bystander-before", 2, null);

    // Refused by the API server: nothing stored, the message names the field.
    refused("truncated JSON", "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":", 400, "");
    refused("JSON array instead of an object", "[1,2,3]", 400, "");
    refused("replicas as a string", podSetJson("string-replicas", "\"three\""), 422, "replicas");
    refused("replicas -1", podSetJson("negative", "-1"), 422, "spec.replicas");
    refused("replicas 1,000,000", podSetJson("huge", "1000000"), 422, "spec.replicas");
    refused("replicas 2^31 (int32 overflow)", podSetJson("overflow", "2147483648"), 422, "");
    refused("name of 254 characters", podSetJson("a".repeat(254), "1"), 422, "metadata.name");
    refused("unicode name", podSetJson("pödset-ß", "1"), 422, "metadata.name");
    refused(
        "unicode label value",
        podSetJson("unicode-label", "1")
            .replace("\"metadata\":{", "\"metadata\":{\"labels\":{\"x\":\"ü\"},"),
        422,
        "metadata.labels");
    kubectlRefused(
        "malformed YAML (kubectl create -f -)",
        "apiVersion: app.example.com/v1alpha1\nkind: PodSet\nmetadata:\n  name: bad-yaml\n"
            + " spec:\n   replicas: [3\n",
        "yaml");

    // Accepted by the server, refused by the operator with a ReplicaFailure condition.
    createPodSet("no-containers", 2, new PodTemplateSpecBuilder().withNewSpec().endSpec().build());
    flagged("template without containers", "no-containers", "spec.template.spec.containers");
    String longName = "l".repeat(100);
    createPodSet(longName, 1, null);
    flagged("name of 100 characters (too long for the pods' label)", longName, "metadata.name");

    // Accepted by the operator, refused by the API server when it creates the pods.
    createPodSet("bad-container-name", 2, template("Bad_Name", "busybox", Map.of()));
    flagged(
        "template the server rejects (container name Bad_Name)",
        "bad-container-name",
        "spec.containers[0].name");

    // Odd but valid: must work, with nothing lost on the way.
    Container unicode = container("app", "busybox");
    unicode.setEnv(List.of(new EnvVar("GREETING", "grüße, 世界 🚀", null)));
    createPodSet("unicode-env", 2, templateOf(unicode, Map.of()));
    converged("unicode env value", "unicode-env", 2);
    assertThat(pods("unicode-env"))
        .allSatisfy(
            pod ->
                assertThat(pod.getSpec().getContainers().get(0).getEnv().get(0).getValue())
                    .isEqualTo("grüße, 世界 🚀"));
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < 3000; i++) {
      labels.put("label-" + i, "v" + i);
    }
    createPodSet("many-labels", 2, template("app", "busybox", labels));
    converged("3000 template labels", "many-labels", 2);
    assertThat(pods("many-labels"))
        .allSatisfy(pod -> assertThat(pod.getMetadata().getLabels()).containsAllEntriesOf(labels));

    createPodSet("bystander-after", 3, null);
    converged("well-formed PodSet created before the sweep", "bystander-before", 2);
    converged("well-formed PodSet created after the sweep", "bystander-after", 3);

    // Nothing lost: exactly the accepted PodSets exist; the operator is alive.
    assertThat(
            admin.resources(PodSet.class).inNamespace(NAMESPACE).list().getItems().stream()
                .map(p -> p.getMetadata().getName()))
        .containsExactlyInAnyOrder(
            "bystander-before",
            "no-containers",
            longName,
            "bad-container-name",
            "unicode-env",
            "many-labels",
            "bystander-after");
    HttpResponse<String> health =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + manager.healthPort() + "/healthz"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(manager.terminated()).isNotDone();

    // The failing PodSet is retried at the backoff rate, not in a hot loop.
    long rejectedCreates =
        server
            .journal()
            .count(RequestMatcher.verb("create").resource("pods").namespace(NAMESPACE).status(422));
    report.add("pod creates the server rejected over the whole sweep: " + rejectedCreates);
    assertThat(rejectedCreates).isBetween(1L, 40L);
  }

  private static void refused(String what, String body, int code, String field) throws Exception {
    int before = storedCount();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(server.url().resolve(PODSETS))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(what).isEqualTo(code);
    assertThat(response.body()).as(what).contains("\"kind\":\"Status\"").contains(field);
    assertThat(storedCount()).as(what + ": nothing stored").isEqualTo(before);
    report.add(what + " -> HTTP " + code + ": " + message(response.body()));
  }

  private static void kubectlRefused(String what, String yaml, String expected) throws Exception {
    int before = storedCount();
    Path kubeconfig = server.writeKubeconfig(Path.of("target", "sweep-kubeconfig"));
    Process kubectl =
        new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "create", "-f", "-")
            .redirectErrorStream(true)
            .start();
    kubectl.getOutputStream().write(yaml.getBytes(StandardCharsets.UTF_8));
    kubectl.getOutputStream().close();
    String output = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(kubectl.waitFor(30, TimeUnit.SECONDS)).as(what + ": kubectl finished").isTrue();
    assertThat(kubectl.exitValue()).as(what).isNotZero();
    assertThat(output.toLowerCase()).as(what).contains(expected);
    assertThat(storedCount()).as(what + ": nothing stored").isEqualTo(before);
    report.add(what + " -> kubectl exit " + kubectl.exitValue() + ": " + output.strip());
  }

  private static void flagged(String what, String name, String field) {
    await(
        what + ": ReplicaFailure naming " + field,
        () -> replicaFailure(name).map(m -> m.contains(field)).orElse(false));
    assertThat(pods(name)).as(what + ": no pods").isEmpty();
    report.add(what + " -> ReplicaFailure: " + replicaFailure(name).orElseThrow());
  }

  private static void converged(String what, String name, int replicas) {
    await(
        what + ": " + replicas + " ready pods",
        () -> {
          PodSet podSet = stored(name);
          PodSetStatus status = podSet == null ? null : podSet.getStatus();
          return status != null
              && status.readyReplicas() == replicas
              && pods(name).size() == replicas
              && replicaFailure(name).isEmpty();
        });
    report.add(what + " -> converged to " + replicas + " ready pods");
  }

  private static Optional<String> replicaFailure(String name) {
    PodSet podSet = stored(name);
    if (podSet == null || podSet.getStatus() == null) {
      return Optional.empty();
    }
    return podSet
        .getStatus()
        .condition(PodSetCondition.REPLICA_FAILURE)
        .filter(PodSetCondition::isTrue)
        .map(c -> c.reason() + ": " + c.message());
  }

  private static PodSet stored(String name) {
    return admin.resources(PodSet.class).inNamespace(NAMESPACE).withName(name).get();
  }

  private static int storedCount() {
    return admin.resources(PodSet.class).inNamespace(NAMESPACE).list().getItems().size();
  }

  private static List<Pod> pods(String podSet) {
    return admin.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(
            p ->
                p.getMetadata().getOwnerReferences().stream()
                    .anyMatch(o -> o.getName().equals(podSet)))
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  private static void createPodSet(String name, int replicas, PodTemplateSpec template) {
    PodSetSpec spec = new PodSetSpec(replicas, template, null);
    admin
        .resources(PodSet.class)
        .inNamespace(NAMESPACE)
        .resource(PodSet.of(NAMESPACE, name, spec))
        .create();
  }

  private static String podSetJson(String name, String replicas) {
    return "{\"apiVersion\":\"app.example.com/v1alpha1\",\"kind\":\"PodSet\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"replicas\":"
        + replicas
        + "}}";
  }

  private static Container container(String name, String image) {
    Container container = new Container();
    container.setName(name);
    container.setImage(image);
    container.setCommand(List.of("sleep", "3600"));
    return container;
  }

  private static PodTemplateSpec template(
      String container, String image, Map<String, String> labels) {
    return templateOf(container(container, image), labels);
  }

  private static PodTemplateSpec templateOf(Container container, Map<String, String> labels) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withContainers(container)
        .endSpec()
        .build();
  }

  private static String message(String statusJson) {
    try {
      return JSON.readTree(statusJson).path("message").asText(statusJson);
    } catch (JsonProcessingException e) {
      return statusJson;
    }
  }
}
