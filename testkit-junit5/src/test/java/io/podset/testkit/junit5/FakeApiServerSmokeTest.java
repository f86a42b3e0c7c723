package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.podset.testkit.Eventually;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

@WithFakeApiServer(crds = "podset-crd.yaml")
class FakeApiServerSmokeTest {

  @Test
  void configMap_createGetListWatch_roundTrips(KubernetesClient client) throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    Watch watch =
        client
            .configMaps()
            .watch(
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {
                    events.add(action + ":" + resource.getMetadata().getName());
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    ConfigMap created =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("one")
                    .endMetadata()
                    .withData(Map.of("a", "b"))
                    .build())
            .create();
    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(client.configMaps().withName("one").get().getData()).containsEntry("a", "b");
    assertThat(client.configMaps().list().getItems()).hasSize(1);
    Eventually.await("the watch event", () -> !events.isEmpty());
    assertThat(events).containsExactly("ADDED:one");
    watch.close();
  }

  @Test
  void podSet_createAndGet(KubernetesClient client) {
    GenericKubernetesResource ps = new GenericKubernetesResource();
    ps.setApiVersion("app.example.com/v1alpha1");
    ps.setKind("PodSet");
    ps.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("ps1").build());
    ps.setAdditionalProperty("spec", Map.of());
    GenericKubernetesResource created =
        client
            .genericKubernetesResources("app.example.com/v1alpha1", "PodSet")
            .resource(ps)
            .create();
    assertThat(created.get("spec", "replicas").toString()).isEqualTo("1");
  }
}
