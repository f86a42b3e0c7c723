package io.podset.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.RbacGrants;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.RequestRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project the archetype generates (kind Website, group example.com, v1alpha1), after its own
 * {@code mvn verify} passed under maven-invoker-plugin: its files, its test results, its deploy/
 * rendered by {@code kubectl kustomize}, and its packaged main run against the testkit's fake API
 * server as deployed (leader election in its namespace, health and metrics ports), reconciling the
 * sample, using exactly the permissions its RBAC grants.
 */
class GeneratedOperatorIT {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String SYSTEM = "website-operator-system";
  private static final String TEST_AGENT = "archetype-it";
  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);

  @TempDir Path dir;

  @Test
  void generatedProject_hasItsFiles_pinsItsPlugins_andPassedItsTests() throws IOException {
    Path project = GeneratedProject.built();
    List<String> files = GeneratedProject.files(project);
    assertThat(files.stream().filter(f -> !f.startsWith("target/")))
        .containsExactlyInAnyOrder(
            ".gitignore",
            "Dockerfile",
            "README.md",
            "pom.xml",
            "deploy/crds/websites.example.com-v1.yml",
            "deploy/kustomization.yaml",
            "deploy/namespace.yaml",
            "deploy/operator.yaml",
            "deploy/rbac/cluster-role-binding.yaml",
            "deploy/rbac/cluster-role.yaml",
            "deploy/rbac/leader-election-role-binding.yaml",
            "deploy/rbac/leader-election-role.yaml",
            "deploy/rbac/service-account.yaml",
            "deploy/samples/website.yaml",
            "src/main/java/com/example/Operator.java",
            "src/main/java/com/example/package-info.java",
            "src/main/java/com/example/website/Website.java",
            "src/main/java/com/example/website/WebsiteReconciler.java",
            "src/main/java/com/example/website/WebsiteSpec.java",
            "src/main/java/com/example/website/WebsiteStatus.java",
            "src/main/java/com/example/website/package-info.java",
            "src/main/resources/logback.xml",
            "src/test/java/com/example/CrdDriftTest.java",
            "src/test/java/com/example/OperatorTest.java",
            "src/test/java/com/example/website/WebsiteReconcilerTest.java",
            "src/test/resources/logback-test.xml");

    String pom = Files.readString(project.resolve("pom.xml"));
    assertThat(pom)
        .as("versions filled in when the archetype was built")
        .doesNotContainPattern("@[a-zA-Z.-]+@")
        .contains("<artifactId>podset-bom</artifactId>")
        .contains("<artifactId>maven-compiler-plugin</artifactId>")
        .contains("<artifactId>jib-maven-plugin</artifactId>");
    assertThat(pom.substring(pom.indexOf("<artifactId>jib-maven-plugin</artifactId>")))
        .as("jib bound to no phase: the build needs no registry")
        .doesNotContain("<executions>");

    GeneratedProject.TestCounts counts = GeneratedProject.testCounts(project);
    System.out.printf(
        "generated project: %d tests, %.1f s in the test classes%n",
        counts.tests(), counts.seconds());
    assertThat(counts.failures() + counts.errors() + counts.skipped()).isZero();
    assertThat(counts.tests()).as("the generated tests").isGreaterThanOrEqualTo(7);
  }

  @Test
  void readmeGuide_isWhatTheInvokerAndThisTestRun() throws IOException {
    String version = System.getProperty("archetype.version");
    assertThat(Guide.readmeLines()).isEqualTo(Guide.expectedLines(version));
    java.util.Properties invoker = new java.util.Properties();
    try (var in = Files.newInputStream(Path.of("src/it/website/invoker.properties"))) {
      invoker.load(in);
    }
    String generate = invoker.getProperty("invoker.goals.1").replace("${project.version}", version);
    assertThat(Guide.properties(generate))
        .as("the invoker's archetype:generate")
        .isEqualTo(Guide.properties(Guide.GENERATE.formatted(version)));
    assertThat(invoker.getProperty("invoker.goals.2")).isEqualTo("verify");
    assertThat(invoker.getProperty("invoker.project.2")).isEqualTo("website-operator");
  }

  @Test
  void deploy_rendersWithKustomize_asAHardenedLeastPrivilegeDeployment() {
    Path project = GeneratedProject.built();
    String rendered =
        Processes.run(project, COMMAND_TIMEOUT, List.of("kubectl", "kustomize", "deploy/"));
    List<HasMetadata> objects = documents(rendered);
    assertThat(objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()))
        .containsExactlyInAnyOrder(
            "Namespace/" + SYSTEM,
            "CustomResourceDefinition/websites.example.com",
            "ServiceAccount/website-operator",
            "ClusterRole/website-operator",
            "ClusterRoleBinding/website-operator",
            "Role/website-operator-leader-election",
            "RoleBinding/website-operator-leader-election",
            "Deployment/website-operator");

    Deployment deployment =
        objects.stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(deployment.getMetadata().getNamespace()).isEqualTo(SYSTEM);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("website-operator");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    Container operator = pod.getContainers().get(0);
    assertThat(operator.getImage()).isEqualTo("website-operator:0.1.0-SNAPSHOT");
    assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(operator.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(operator.getResources().getLimits()).containsKeys("cpu", "memory");
    assertThat(operator.getEnv().stream().map(e -> e.getName()))
        .contains("POD_NAME", "POD_NAMESPACE");
    // The JVM as the repository's own operator runs: C1 only, compiling early
    // (deploy/operator.yaml says why), in the Deployment and in both images (the Dockerfile's and
    // jib's).
    String jit = "-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1";
    assertThat(operator.getEnv())
        .filteredOn(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
        .singleElement()
        .satisfies(e -> assertThat(e.getValue()).contains(jit));
    assertThat(project.resolve("Dockerfile"))
        .content()
        .contains("ENV JAVA_TOOL_OPTIONS=\"" + jit + "\"");
    assertThat(project.resolve("pom.xml"))
        .content()
        .contains("<JAVA_TOOL_OPTIONS>" + jit + "</JAVA_TOOL_OPTIONS>");
  }

  @Test
  void main_reconcilesTheSample_leads_servesHealthAndMetrics_withExactlyItsRbac() throws Exception {
    Path project = GeneratedProject.built();
    try (FakeApiServer server = FakeApiServer.builder().start();
        KubernetesClient client =
            new KubernetesClientBuilder()
                .withConfig(
                    new ConfigBuilder(server.clientConfig()).withUserAgent(TEST_AGENT).build())
                .build()) {
      Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
      Map<String, String> kubectlEnv = Map.of("KUBECONFIG", kubeconfig.toString());
      // The README's guide after the build, as a user types it: the CRD, the operator's main (with
      // the environment the Deployment gives it), the sample, then deploy/ with kustomize.
      Processes.run(project, kubectlEnv, COMMAND_TIMEOUT, Guide.INSTALL_CRDS);
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(SYSTEM).endMetadata().build())
          .create();
      int healthPort = freePort();
      int metricsPort = freePort();
      Path log = dir.resolve("operator.log");
      List<String> run = new java.util.ArrayList<>(Guide.RUN);
      run.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
      ProcessBuilder command =
          new ProcessBuilder(run)
              .directory(project.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      command.environment().put("KUBECONFIG", kubeconfig.toString());
      command.environment().put("POD_NAMESPACE", SYSTEM);
      command.environment().put("POD_NAME", "website-operator-0");
      command.environment().put("HEALTH_PORT", Integer.toString(healthPort));
      command.environment().put("METRICS_PORT", Integer.toString(metricsPort));
      RequestJournal.Mark start = server.journal().mark();
      Process operator = command.start();
      try {
        Eventually.await(
            "the operator ready on /readyz (log: " + log + ")",
            () -> operator.isAlive() && status(healthPort, "/readyz") == 200);

        Processes.run(project, kubectlEnv, COMMAND_TIMEOUT, Guide.APPLY_SAMPLE);
        Eventually.await(
            "the sample's ConfigMap",
            () -> client.configMaps().inNamespace("default").withName("website-sample").get(),
            cm -> cm != null && "Hello from Website".equals(cm.getData().get("message")));
        Eventually.await(
            "the sample Ready",
            () -> websites(client).withName("website-sample").get(),
            w -> isReady(w));
        Lease lease = client.leases().inNamespace(SYSTEM).withName("website-operator").get();
        assertThat(lease).as("the Lease of leader election").isNotNull();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("website-operator-0");
        assertThat(Processes.run(project, kubectlEnv, COMMAND_TIMEOUT, Guide.GET))
            .contains("website-sample");
        Processes.run(project, kubectlEnv, COMMAND_TIMEOUT, Guide.DEPLOY);
        assertThat(
                client.apps().deployments().inNamespace(SYSTEM).withName("website-operator").get())
            .as("the Deployment applied by kubectl apply -k deploy/")
            .isNotNull();
        assertThat(status(healthPort, "/healthz")).isEqualTo(200);
        assertThat(get(metricsPort, "/metrics"))
            .containsPattern("controller_runtime_reconcile_total\\{[^}]*controller=\"website\"");
      } finally {
        operator.destroy(); // SIGTERM: the shutdown hook closes the manager
        assertThat(operator.waitFor(40, TimeUnit.SECONDS)).as("exits on SIGTERM").isTrue();
      }

      List<RequestRecord> requests =
          server.journal().records(RequestMatcher.any().since(start)).stream()
              .filter(r -> r.userAgent() == null || !r.userAgent().contains(TEST_AGENT))
              .filter(r -> r.userAgent() == null || !r.userAgent().startsWith("kubectl"))
              .toList();
      RbacGrants grants =
          RbacGrants.read(project.resolve("deploy/rbac"), "website-operator", SYSTEM);
      assertThat(grants.granted())
          .as("wildcards in deploy/rbac")
          .noneMatch(g -> g.toString().contains("*"));
      RbacGrants.Check check = grants.check(requests);
      assertThat(check.used()).as("the operator's requests").isNotEmpty();
      assertThat(check.refused()).as("requests deploy/rbac does not allow").isEmpty();
      assertThat(check.unused())
          .as("permissions granted but never used; used: %s", check.used())
          .isEmpty();
    }
  }

  private static io.fabric8.kubernetes.client.dsl.MixedOperation<
          GenericKubernetesResource,
          io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
          io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
      websites(KubernetesClient client) {
    return client.genericKubernetesResources(
        new ResourceDefinitionContext.Builder()
            .withGroup("example.com")
            .withVersion("v1alpha1")
            .withKind("Website")
            .withPlural("websites")
            .withNamespaced(true)
            .build());
  }

  @SuppressWarnings("unchecked")
  private static boolean isReady(GenericKubernetesResource website) {
    if (website == null
        || !(website.getAdditionalProperties().get("status") instanceof Map<?, ?> s)) {
      return false;
    }
    Object conditions = s.get("conditions");
    return conditions instanceof List<?> list
        && list.stream()
            .map(c -> (Map<String, Object>) c)
            .anyMatch(c -> "Ready".equals(c.get("type")) && "True".equals(c.get("status")));
  }

  static List<HasMetadata> documents(String yaml) {
    return Arrays.stream(yaml.split("(?m)^---\\s*$"))
        .filter(doc -> !doc.isBlank())
        .map(doc -> (HasMetadata) SERIALIZATION.unmarshal(doc))
        .collect(Collectors.toList());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private static int status(int port, String path) {
    try {
      return HTTP.send(request(port, path), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String get(int port, String path) throws IOException, InterruptedException {
    return HTTP.send(request(port, path), HttpResponse.BodyHandlers.ofString()).body();
  }

  private static HttpRequest request(int port, String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5))
        .build();
  }
}
