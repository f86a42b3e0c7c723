package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.testkit.Eventually;
import io.podset.testkit.envtest.RealApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithRealApiServer(crds = "envtest/widget-crd.yaml")
class RealApiServerIT extends ApiServerContract {

  private static final AtomicInteger namespaces = new AtomicInteger();

  private static String newNamespace(KubernetesClient admin) {
    String name = "it-" + namespaces.incrementAndGet();
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  @Test
  void start_servesTheBuiltReleaseOnLoopback(RealApiServer server) {
    assertThat(server.url().getHost()).isEqualTo("127.0.0.1");
    assertThat(server.url().getScheme()).isEqualTo("https");
    assertThat(server.version()).matches("v1\\.\\d+\\.\\d+");
    assertThat(server.controllerManagerRunning()).isFalse();
  }

  @Test
  void admin_createsNamespaceAndConfigMap(KubernetesClient admin) {
    String ns = newNamespace(admin);

    admin
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("cm")
                .endMetadata()
                .addToData("k", "v")
                .build())
        .create();

    ConfigMap read = admin.configMaps().inNamespace(ns).withName("cm").get();
    assertThat(read.getData()).containsEntry("k", "v");
    assertThat(read.getMetadata().getUid()).isNotBlank();
    assertThat(read.getMetadata().getResourceVersion()).isNotBlank();
  }

  @Test
  void writeKubeconfig_isUsableByAnotherClient(RealApiServer server, @TempDir Path temp)
      throws Exception {
    String yaml = Files.readString(server.writeKubeconfig(temp.resolve("kubeconfig")));

    try (KubernetesClient client =
        new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(yaml)).build()) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  @Test
  void serviceAccountWithoutRole_isForbidden_untilARoleBindingGrantsIt(RealApiServer server) {
    KubernetesClient admin = server.client();
    String ns = newNamespace(admin);
    KubernetesClient robot = server.serviceAccountClient(ns, "robot");

    assertThatThrownBy(() -> robot.configMaps().inNamespace(ns).list())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
        .hasMessageContaining("system:serviceaccount:" + ns + ":robot");

    admin
        .rbac()
        .roles()
        .inNamespace(ns)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("read-configmaps")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    admin
        .rbac()
        .roleBindings()
        .inNamespace(ns)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("robot-reads")
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName("read-configmaps")
                .endRoleRef()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("robot")
                .withNamespace(ns)
                .endSubject()
                .build())
        .create();

    Eventually.within(Duration.ofSeconds(30))
        .until(
            "the RoleBinding to take effect",
            () -> {
              try {
                robot.configMaps().inNamespace(ns).list();
                return true;
              } catch (KubernetesClientException e) {
                if (e.getCode() == 403) {
                  return false;
                }
                throw e;
              }
            });
    assertThatThrownBy(
            () ->
                robot
                    .configMaps()
                    .inNamespace(ns)
                    .resource(
                        new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("x")
                            .endMetadata()
                            .build())
                    .create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
  }

  @Test
  void crdGivenToTheBuilder_isServedAndValidates(KubernetesClient admin) {
    String ns = newNamespace(admin);
    var widgets = admin.genericKubernetesResources("test.podset.io/v1", "Widget").inNamespace(ns);

    widgets
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("test.podset.io/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withName("w")
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 2)))
                .build())
        .create();
    GenericKubernetesResource read = widgets.withName("w").get();

    assertThat(read.<Integer>get("spec", "size")).isEqualTo(2);
    assertThatThrownBy(
            () ->
                widgets
                    .resource(
                        new GenericKubernetesResourceBuilder()
                            .withApiVersion("test.podset.io/v1")
                            .withKind("Widget")
                            .withNewMetadata()
                            .withName("negative")
                            .endMetadata()
                            .withAdditionalProperties(Map.of("spec", Map.of("size", -1)))
                            .build())
                    .create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
  }
}
