package com.example.website;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.junit5.WithFakeApiServer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithFakeApiServer(crds = "META-INF/fabric8/websites.example.com-v1.yml")
class WebsiteReconcilerTest {

  private final Map<String, String> directory = new ConcurrentHashMap<>();
  private Manager manager;

  @BeforeEach
  void startOperator(KubernetesClient client) {
    manager = Manager.builder(client).healthPort(0).metricsPort(0).build();
    new WebsiteReconciler(
            new SiteDirectory() {
              @Override
              public void publish(String host, String address) {
                directory.put(host, address);
              }

              @Override
              public void unpublish(String host) {
                directory.remove(host);
              }
            })
        .register(manager);
    manager.start();
  }

  @AfterEach
  void stopOperator() {
    manager.close();
  }

  @Test
  void website_getsPageDeploymentAndService_andIsReadyOnceServing(KubernetesClient client) {
    client.resource(website("home", "<h1>Hello</h1>")).create();

    assertThat(await(client, ConfigMap.class, "home-page").getData())
        .containsEntry("index.html", "<h1>Hello</h1>");
    await(client, Service.class, "home");
    Deployment deployment = await(client, Deployment.class, "home");
    deployment.setStatus(new DeploymentStatusBuilder().withReplicas(1).withReadyReplicas(1).build());
    client.resource(deployment).updateStatus();

    Eventually.await(
        "the Website is Ready",
        () -> client.resources(Website.class).withName("home").get(),
        w -> w.getStatus() != null && Conditions.isTrue(w.getStatus().getConditions(), "Ready"));
    assertThat(directory).containsEntry("home.default.example.com", "home.default.svc");
  }

  @Test
  void deletedWebsite_isWithdrawn_thenGoes(KubernetesClient client) {
    Website site = client.resource(website("old", "bye")).create();
    Eventually.await("published", () -> directory.containsKey("old.default.example.com"));

    client.resource(site).delete();

    Eventually.await("the Website is gone", () -> client.resource(site).get() == null);
    assertThat(directory).doesNotContainKey("old.default.example.com");
  }

  private static Website website(String name, String html) {
    Website site = new Website();
    site.getMetadata().setName(name);
    site.getMetadata().setNamespace("default");
    site.setSpec(new WebsiteSpec(html, 1));
    return site;
  }

  private static <T extends HasMetadata> T await(
      KubernetesClient client, Class<T> type, String name) {
    return Eventually.await(
        type.getSimpleName() + " " + name,
        () -> client.resources(type).inNamespace("default").withName(name).get(),
        object -> object != null);
  }
}
