package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl as a real client of the fake: the seed's PodSet walk-through, step by step. kubectl must
 * be installed (these tests fail, they do not skip, without it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlIT {

  private static final ResourceDefinitionContext PODSETS =
      new ResourceDefinitionContext.Builder()
          .withGroup("app.example.com")
          .withVersion("v1alpha1")
          .withKind("PodSet")
          .withPlural("podsets")
          .withNamespaced(true)
          .build();

  @TempDir static Path dir;
  private FakeApiServer server;
  private Kubectl kubectl;

  @BeforeAll
  void start() {
    server = FakeApiServer.start();
    kubectl =
        Kubectl.using(server.writeKubeconfig(dir.resolve("kubeconfig")), dir.resolve("cache"));
  }

  @AfterAll
  void stop() {
    server.close();
  }

  private static Path resource(String name) {
    try {
      return Path.of(KubectlIT.class.getResource("/" + name).toURI());
    } catch (Exception e) {
      throw new IllegalStateException("missing test resource " + name, e);
    }
  }

  private List<String> command(String... args) {
    return kubectl.command(args);
  }

  /** Runs kubectl to completion; fails on a non-zero exit. Returns stdout and stderr. */
  private String kubectl(String... args) {
    Kubectl.Result result = kubectl.run(args);
    assertThat(result.exitCode())
        .as("kubectl %s exit code; output:%n%s", String.join(" ", args), result.output())
        .isZero();
    return result.output();
  }

  private Map<String, Object> spec(String name) {
    GenericKubernetesResource ps =
        server
            .client()
            .genericKubernetesResources(PODSETS)
            .inNamespace("default")
            .withName(name)
            .get();
    return mapOf(ps, "spec");
  }

  /** The map at {@code field} of a generic resource (spec, status). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> mapOf(GenericKubernetesResource resource, String field) {
    return (Map<String, Object>) resource.getAdditionalProperties().get(field);
  }

  @Test
  @Order(1)
  void create_crdThenSeedPodSet() {
    assertThat(kubectl("create", "-f", resource("podset-crd.yaml").toString()))
        .contains("customresourcedefinition.apiextensions.k8s.io/podsets.app.example.com created");
    assertThat(kubectl("create", "-f", resource("example-podset.yaml").toString()))
        .contains("podset.app.example.com/example-podset created");
    assertThat(spec("example-podset")).containsEntry("replicas", 3);
  }

  @Test
  @Order(2)
  void get_showsPrinterColumns() {
    String table = kubectl("get", "ps");
    List<String> lines = table.lines().collect(Collectors.toList());
    assertThat(lines.get(0).split("\\s+"))
        .containsExactly("NAME", "DESIRED", "CURRENT", "READY", "AGE");
    assertThat(lines.get(1)).startsWith("example-podset").contains(" 3 ");
  }

  @Test
  @Order(2)
  void getPods_showsTheColumnsOfARealCluster() {
    assertThat(kubectl("run", "tabled", "--image=registry.example/app:1", "--restart=Never"))
        .contains("pod/tabled created");

    List<String> lines = kubectl("get", "pods", "tabled").lines().collect(Collectors.toList());

    assertThat(lines.get(0).split("\\s+"))
        .containsExactly("NAME", "READY", "STATUS", "RESTARTS", "AGE");
    assertThat(lines.get(1).split("\\s+")).startsWith("tabled", "0/1", "Pending", "0");
    assertThat(kubectl("get", "pods", "tabled", "-o", "wide").lines().findFirst().orElseThrow())
        .contains("IP", "NODE", "NOMINATED NODE", "READINESS GATES");
    assertThat(kubectl("delete", "pod", "tabled", "--wait=true")).contains("deleted");
  }

  @Test
  @Order(3)
  void getWatch_receivesAChange() throws Exception {
    Process process =
        new ProcessBuilder(command("get", "podsets", "--watch", "--output-watch-events"))
            .redirectErrorStream(true)
            .start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                // The process was stopped.
              }
            });
    reader.setDaemon(true);
    reader.start();
    try {
      String first = awaitLine(lines, l -> l.contains("example-podset"));
      assertThat(first).contains("ADDED");
      server
          .client()
          .genericKubernetesResources(PODSETS)
          .inNamespace("default")
          .withName("example-podset")
          .edit(
              ps -> {
                mapOf(ps, "spec").put("replicas", 4);
                return ps;
              });
      String change = awaitLine(lines, l -> l.contains("MODIFIED"));
      assertThat(change).contains("example-podset").contains(" 4 ");
    } finally {
      process.destroy();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String awaitLine(
      BlockingQueue<String> lines, java.util.function.Predicate<String> wanted)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      String line = lines.poll(1, TimeUnit.SECONDS);
      if (line != null) {
        seen.add(line);
        if (wanted.test(line)) {
          return line;
        }
      }
    }
    throw new AssertionError("no matching kubectl output within 30 s; saw " + seen);
  }

  @Test
  @Order(4)
  void scale_setsReplicasThroughScaleSubresource() {
    assertThat(kubectl("scale", "ps", "example-podset", "--replicas=5")).contains("scaled");
    assertThat(spec("example-podset")).containsEntry("replicas", 5);
  }

  @Test
  @Order(5)
  void patch_mergeAndJson() {
    kubectl(
        "patch", "ps", "example-podset", "--type", "merge", "-p", "{\"spec\":{\"replicas\":2}}");
    assertThat(spec("example-podset")).containsEntry("replicas", 2);
    kubectl(
        "patch",
        "ps",
        "example-podset",
        "--type",
        "json",
        "-p",
        "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":6}]");
    assertThat(spec("example-podset")).containsEntry("replicas", 6);
  }

  @Test
  @Order(6)
  void describe_andApply() {
    assertThat(kubectl("describe", "podset", "example-podset"))
        .contains("Name:         example-podset")
        .contains("Replicas:  6");
    assertThat(kubectl("apply", "-f", resource("example-podset.yaml").toString()))
        .contains("configured");
    assertThat(spec("example-podset")).containsEntry("replicas", 3);
  }

  @Test
  @Order(7)
  void delete_removesThePodSet() {
    assertThat(kubectl("delete", "ps", "example-podset")).contains("deleted");
    assertThat(
            server
                .client()
                .genericKubernetesResources(PODSETS)
                .inNamespace("default")
                .withName("example-podset")
                .get())
        .isNull();
    assertThat(kubectl("get", "ps")).contains("No resources found");
  }

  @Test
  @Order(8)
  void builtinPods_runGetAndDelete() {
    kubectl("run", "nginx", "--image=nginx");
    assertThat(kubectl("get", "pods")).contains("nginx").contains("Pending");
    assertThat(kubectl("delete", "pod", "nginx", "--wait=true")).contains("deleted");
    assertThat(
            Stream.of(kubectl("get", "pods", "-o", "name").split("\n")).filter(l -> !l.isBlank()))
        .isEmpty();
  }

  @Test
  @Order(9)
  void createBuiltins_kubectlSendsProtobuf_storedAsTheApiServerWouldWriteJson() {
    // kubectl encodes built-in types as application/vnd.kubernetes.protobuf.
    kubectl("create", "namespace", "proto");
    kubectl(
        "create",
        "configmap",
        "settings",
        "-n",
        "proto",
        "--from-literal=mode=fast",
        "--from-literal=empty=");
    kubectl("create", "secret", "generic", "token", "-n", "proto", "--from-literal=key=s3cr3t");
    kubectl("create", "deployment", "web", "-n", "proto", "--image=nginx:1.27", "--replicas=0");
    kubectl("create", "service", "clusterip", "web", "-n", "proto", "--tcp=80:http");

    try (var client = server.newClient()) {
      assertThat(client.namespaces().withName("proto").get()).isNotNull();
      var configMap = client.configMaps().inNamespace("proto").withName("settings").get();
      assertThat(configMap.getData())
          .containsExactlyInAnyOrderEntriesOf(Map.of("mode", "fast", "empty", ""));
      var secret = client.secrets().inNamespace("proto").withName("token").get();
      assertThat(
              new String(
                  java.util.Base64.getDecoder().decode(secret.getData().get("key")),
                  StandardCharsets.UTF_8))
          .isEqualTo("s3cr3t");
      var deployment = client.apps().deployments().inNamespace("proto").withName("web").get();
      assertThat(deployment.getSpec().getReplicas()).as("an explicit 0 is kept").isZero();
      assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
          .isEqualTo("nginx:1.27");
      assertThat(deployment.getMetadata().getCreationTimestamp()).isNotBlank();
      var port =
          client.services().inNamespace("proto").withName("web").get().getSpec().getPorts().get(0);
      assertThat(port.getPort()).isEqualTo(80);
      assertThat(port.getTargetPort().getStrVal())
          .as("an int-or-string stays a string")
          .isEqualTo("http");
    }
    assertThat(
            kubectl(
                "get",
                "deployment",
                "web",
                "-n",
                "proto",
                "-o",
                "jsonpath={.spec.template.spec.containers[0].image}"))
        .isEqualTo("nginx:1.27");
  }

  @Test
  @Order(10)
  void explain_customResource_readsTheCrdSchemaFromOpenApi() {
    String spec = kubectl("explain", "podsets.spec");
    assertThat(spec).contains("KIND:       PodSet").contains("VERSION:    v1alpha1");
    assertThat(spec).containsPattern("replicas\\s+<integer>");
    assertThat(kubectl("explain", "ps")).containsPattern("spec\\s+<Object>").contains("metadata");
  }
}
