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
    VertxHttpClientFactory chosen = new VertxHttpClientFactory();

    assertThat(KubernetesClients.httpClientFactory(chosen, false)).isSameAs(chosen);
  }

  @Test
  void httpClientFactory_keepsAFactoryTheUserAdded() {
    UsersHttpClientFactory chosen = new UsersHttpClientFactory();

    assertThat(KubernetesClients.httpClientFactory(chosen, true)).isSameAs(chosen);
  }
}
