package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.junit5.WithFakeApiServer;
import org.junit.jupiter.api.Test;

/** testkit-junit5, managed by the BOM: the extension resolves the server and its client. */
@WithFakeApiServer
class ExtensionTest {

  @Test
  void resolvesTheServerAndItsClient(FakeApiServer server, KubernetesClient client) {
    client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build())
        .create();
    assertEquals("c", server.client().configMaps().withName("c").get().getMetadata().getName());
  }
}
