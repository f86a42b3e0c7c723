package io.podset.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.junit.jupiter.api.Test;

class KubernetesClientsTest {

  @Test
  void httpClientFactory_replacesFabric8sVertxFactory_whenChaChaIsPreferred() {
    assertThat(KubernetesClients.httpClientFactory(new VertxHttpClientFactory(), true))
        .isInstanceOf(ChaChaFirstHttpClientFactory.class);
  }

  @Test
  void httpClientFactory_keepsFabric8sChoice_whenAesGcmIsFast() {
    assertThat(KubernetesClients.httpClientFactory(new VertxHttpClientFactory(), false)).isNull();
  }

  @Test
  void httpClientFactory_keepsAFactoryTheUserAdded() {
    assertThat(KubernetesClients.httpClientFactory(new UsersHttpClientFactory(), true)).isNull();
  }
}
