package io.podset.examples.website;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.junit5.WithFakeApiServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithFakeApiServer(
    crds = "META-INF/fabric8/websites.example.com-v1.yml",
    lifecycle = WithFakeApiServer.Lifecycle.PER_METHOD)
class WebsiteOperatorTest {

  private static final Eventually EVENTUALLY = Eventually.within(Duration.ofSeconds(20));

  private final RecordingDirectory directory = new RecordingDirectory();
  private FakeApiServer server;
  private KubernetesClient client;
  private KubernetesClient operatorClient;
  private Manager manager;

  @BeforeEach
  void startOperator(FakeApiServer server, KubernetesClient client) {
    this.server = server;
    this.client = client;
    // As Manager.builder() configures its own client: no hidden retries inside fabric8.
    operatorClient =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(server.clientConfig()).withRequestRetryBackoffLimit(0).build())
            .build();
    manager = Manager.builder(operatorClient).healthPort(0).metricsPort(0).build();
    new WebsiteReconciler(directory).register(manager);
  }

  @AfterEach
  void stopOperator() {
    manager.close();
    operatorClient.close();
  }

  @Test
  void create_appliesPageDeploymentAndService_andReportsReadyOnceServing() {
    manager.start();
    Website site = client.resource(website("home", "<h1>Hello</h1>", 2)).create();

    ConfigMap page = awaitObject(ConfigMap.class, "home-page");
    assertThat(page.getData()).containsEntry("index.html", "<h1>Hello</h1>");
    Deployment deployment = awaitObject(Deployment.class, "home");
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    assertThat(deployment.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(ref -> assertThat(ref.getUid()).isEqualTo(site.getMetadata().getUid()));
    awaitObject(Service.class, "home");
    EVENTUALLY.until(
        "Ready=False while no replica is ready",
        () -> readyMessage("home"),
        message -> "False: 0 of 2 replicas ready".equals(message));
    assertThat(directory.entries()).containsEntry("home.default.example.com", "home.default.svc");
    assertThat(client.resource(site).get().getMetadata().getFinalizers())
        .containsExactly("websites.example.com/finalizer");

    markReady("home", 2);
    EVENTUALLY.until(
        "Ready=True", () -> readyMessage("home"), m -> "True: 2 of 2 replicas ready".equals(m));
  }

  @Test
  void pageChange_updatesThePage_andRollsThePods() {
    manager.start();
    client.resource(website("blog", "v1", 1)).create();
    String firstHash = podTemplateHash(awaitObject(Deployment.class, "blog"));

    // Patches without a resourceVersion: the test's writes never conflict with the operator's.
    client
        .resources(Website.class)
        .withName("blog")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"html\":\"v2\"}}");

    EVENTUALLY.until(
        "the page shows v2",
        () -> client.configMaps().withName("blog-page").get().getData().get("index.html"),
        "v2"::equals);
    EVENTUALLY.until(
        "the pod template changed",
        () -> podTemplateHash(client.apps().deployments().withName("blog").get()),
        hash -> !hash.equals(firstHash));
  }

  @Test
  void drift_inAnyAppliedField_isCorrected() {
    manager.start();
    client.resource(website("shop", "<p>shop</p>", 2)).create();
    awaitObject(Service.class, "shop");
    awaitObject(Deployment.class, "shop");

    client
        .apps()
        .deployments()
        .withName("shop")
        .patch(
            PatchContext.of(PatchType.STRATEGIC_MERGE),
            "{\"spec\":{\"replicas\":7,\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"nginx\",\"image\":\"nginx:evil\"}]}}}}");
    client.services().withName("shop").delete();

    EVENTUALLY.until(
        "the Deployment is put back",
        () -> client.apps().deployments().withName("shop").get(),
        d ->
            d.getSpec().getReplicas() == 2
                && "nginx:1.27"
                    .equals(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()));
    EVENTUALLY.until(
        "the Service is created again", () -> client.services().withName("shop").get() != null);
  }

  @Test
  void delete_runsTheCleanup_thenTheWebsiteGoes() {
    manager.start();
    Website site = client.resource(website("old", "bye", 1)).create();
    awaitObject(Deployment.class, "old");
    EVENTUALLY.until("published", () -> directory.entries().containsKey("old.default.example.com"));

    client.resource(site).delete();

    EVENTUALLY.until("the Website is gone", () -> client.resource(site).get() == null);
    assertThat(directory.entries()).doesNotContainKey("old.default.example.com");
    EVENTUALLY.until(
        "its Deployment is garbage-collected",
        () -> client.apps().deployments().withName("old").get() == null);
  }

  @Test
  void injectedServerErrorsAndConflicts_areRetriedByTheController() {
    FaultInjector faults = server.faults();
    FaultInjector.Handle deploymentErrors =
        faults.add(
            FaultRule.match()
                .verbs("patch")
                .resource("apps", "deployments")
                .times(2)
                .inject(Fault.serverError(500)));
    FaultInjector.Handle statusConflicts =
        faults.add(
            FaultRule.match()
                .verbs("patch")
                .resource("example.com", "websites")
                .subresource("status")
                .times(2)
                .inject(Fault.conflict()));
    manager.start();
    client.resource(website("flaky", "<p>ok</p>", 1)).create();

    awaitObject(Deployment.class, "flaky");
    markReady("flaky", 1);
    EVENTUALLY.until(
        "Ready=True despite the faults",
        () -> readyMessage("flaky"),
        m -> "True: 1 of 1 replicas ready".equals(m));
    assertThat(deploymentErrors.injected()).isEqualTo(2);
    assertThat(statusConflicts.injected()).isEqualTo(2);
    assertThat(
            manager
                .meterRegistry()
                .get("controller_runtime_reconcile_errors")
                .tag("controller", "website")
                .counter()
                .count())
        .isGreaterThanOrEqualTo(4);
  }

  static Website website(String name, String html, int replicas) {
    Website site = new Website();
    site.getMetadata().setName(name);
    site.getMetadata().setNamespace("default");
    site.setSpec(new WebsiteSpec(html, replicas));
    return site;
  }

  private <T extends io.fabric8.kubernetes.api.model.HasMetadata> T awaitObject(
      Class<T> type, String name) {
    return EVENTUALLY.until(
        type.getSimpleName() + " " + name,
        () -> client.resources(type).inNamespace("default").withName(name).get(),
        object -> object != null);
  }

  private String readyMessage(String name) {
    Website site = client.resources(Website.class).withName(name).get();
    if (site == null || site.getStatus() == null) {
      return null;
    }
    return Conditions.find(site.getStatus().getConditions(), "Ready")
        .map(c -> c.getStatus() + ": " + c.getMessage())
        .orElse(null);
  }

  private void markReady(String name, int replicas) {
    markReady(client, name, replicas);
  }

  /**
   * Plays the Deployment controller, which the fake API server does not run: a merge patch of the
   * status, without a resourceVersion, so it never conflicts with the operator's applies.
   */
  static void markReady(KubernetesClient client, String name, int replicas) {
    client
        .apps()
        .deployments()
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"replicas\":"
                + replicas
                + ",\"readyReplicas\":"
                + replicas
                + ",\"availableReplicas\":"
                + replicas
                + "}}");
  }

  private static String podTemplateHash(Deployment deployment) {
    return deployment
        .getSpec()
        .getTemplate()
        .getMetadata()
        .getAnnotations()
        .get("example.com/page-hash");
  }
}
