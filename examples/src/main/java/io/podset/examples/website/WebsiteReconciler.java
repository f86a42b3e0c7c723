package io.podset.examples.website;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.reconcile.Context;
import io.podset.runtime.reconcile.Result;
import java.util.Map;

/**
 * Serves each {@link Website} with nginx: a ConfigMap holding the page, a Deployment mounting it
 * (rolled when the page changes) and a Service in front, all owned by the Website; publishes it in
 * the {@link SiteDirectory} and withdraws it on deletion; reports a {@code Ready} condition.
 */
public final class WebsiteReconciler {

  private final SiteDirectory directory;

  public WebsiteReconciler(SiteDirectory directory) {
    this.directory = directory;
  }

  /** Registers the controller; it runs once the manager starts. */
  public void register(Manager manager) {
    register(manager, InformerOptions.defaults());
  }

  /** Registers the controller with its informers' options (a namespace, a resync period). */
  public void register(Manager manager, InformerOptions options) {
    manager
        .controllerFor(Website.class)
        .informerOptions(options)
        .owns(ConfigMap.class)
        .owns(Deployment.class)
        .owns(Service.class)
        .cleanup(this::cleanup)
        .reconcile(this::reconcile);
  }

  Result reconcile(Website site, Context<Website> context) {
    String name = site.getMetadata().getName();
    String html = site.getSpec().html();
    int replicas = site.getSpec().replicasOrDefault();
    context.apply(page(name, html));
    Deployment deployment = context.apply(deployment(name, replicas, html));
    context.apply(service(name));
    directory.publish(host(site), name + "." + site.getMetadata().getNamespace() + ".svc");

    Integer ready =
        deployment.getStatus() == null ? null : deployment.getStatus().getReadyReplicas();
    int readyReplicas = ready == null ? 0 : ready;
    boolean isReady = readyReplicas >= replicas;
    String message = readyReplicas + " of " + replicas + " replicas ready";
    context.updateStatus(
        s ->
            s.getStatus()
                .setCondition(
                    context.condition(
                        "Ready", isReady, isReady ? "Available" : "Progressing", message)));
    return Result.done();
  }

  Result cleanup(Website site, Context<Website> context) {
    directory.unpublish(host(site));
    return Result.done();
  }

  static String host(Website site) {
    return site.getMetadata().getName() + "." + site.getMetadata().getNamespace() + ".example.com";
  }

  static ConfigMap page(String name, String html) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name + "-page")
        .endMetadata()
        .withData(Map.of("index.html", html))
        .build();
  }

  static Deployment deployment(String name, int replicas, String html) {
    Map<String, String> labels = Map.of("app.kubernetes.io/name", name);
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .withAnnotations(Map.of("example.com/page-hash", Integer.toHexString(html.hashCode())))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("nginx")
        .withImage("nginx:1.27")
        .addNewPort()
        .withContainerPort(80)
        .endPort()
        .addNewVolumeMount()
        .withName("page")
        .withMountPath("/usr/share/nginx/html")
        .endVolumeMount()
        .endContainer()
        .addNewVolume()
        .withName("page")
        .withNewConfigMap()
        .withName(name + "-page")
        .endConfigMap()
        .endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  static Service service(String name) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withSelector(Map.of("app.kubernetes.io/name", name))
        .addNewPort()
        .withPort(80)
        .endPort()
        .endSpec()
        .build();
  }
}
