package io.podset.testkit.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A test written once against a {@link KubernetesClient} parameter, run on each of the testkit's
 * three environments by the annotation of a subclass: {@code @WithFakeApiServer} ({@code
 * FakeApiServerContractTest}), {@link WithRealApiServer} ({@link RealApiServerIT}) and {@link
 * WithSimulatedCluster} ({@link SimulatedClusterIT}).
 */
abstract class ApiServerContract {

  @Test
  void contract_createWatchListAndDelete_throughTheResolvedClient(KubernetesClient client)
      throws Exception {
    String namespace =
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withGenerateName("contract-")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getName();
    var configMaps = client.configMaps().inNamespace(namespace);
    CompletableFuture<List<ConfigMap>> seen =
        configMaps
            .withLabel("contract", "yes")
            .informOnCondition(
                list -> list.stream().anyMatch(c -> "2".equals(c.getData().get("value"))));

    configMaps
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("c")
                .addToLabels("contract", "yes")
                .endMetadata()
                .addToData("value", "1")
                .build())
        .create();
    configMaps.withName("c").edit(c -> new ConfigMapBuilder(c).addToData("value", "2").build());

    assertThat(seen.get(30, TimeUnit.SECONDS)).singleElement();
    assertThat(configMaps.withLabel("contract", "no").list().getItems()).isEmpty();
    configMaps.withName("c").delete();
    assertThat(configMaps.withName("c").waitUntilCondition(c -> c == null, 30, TimeUnit.SECONDS))
        .isNull();
  }
}
