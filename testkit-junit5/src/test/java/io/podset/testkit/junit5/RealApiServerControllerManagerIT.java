package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.envtest.RealApiServer;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@WithRealApiServer(controllerManager = true)
class RealApiServerControllerManagerIT {

  @Test
  void deletingOwner_garbageCollectorDeletesDependents(RealApiServer server) {
    assertThat(server.controllerManagerRunning()).isTrue();
    KubernetesClient admin = server.client();
    String ns = "gc";
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    ConfigMap owner =
        admin
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    admin
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("dependent")
                .addNewOwnerReference()
                .withApiVersion("v1")
                .withKind("ConfigMap")
                .withName("owner")
                .withUid(owner.getMetadata().getUid())
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();

    admin.configMaps().inNamespace(ns).withName("owner").delete();

    ConfigMap gone =
        admin
            .configMaps()
            .inNamespace(ns)
            .withName("dependent")
            .waitUntilCondition(Objects::isNull, 60, TimeUnit.SECONDS);
    assertThat(gone).isNull();
  }

  @Test
  void deletingNamespace_namespaceControllerEmptiesAndRemovesIt(KubernetesClient admin) {
    String ns = "doomed";
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    admin
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder().withNewMetadata().withName("content").endMetadata().build())
        .create();

    admin.namespaces().withName(ns).delete();

    assertThat(
            admin
                .namespaces()
                .withName(ns)
                .waitUntilCondition(Objects::isNull, 60, TimeUnit.SECONDS))
        .isNull();
    assertThat(admin.configMaps().inNamespace(ns).withName("content").get()).isNull();
  }
}
