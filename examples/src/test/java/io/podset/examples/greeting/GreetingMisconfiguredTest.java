package io.podset.examples.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.examples.greeting.GreetingOperator.Greeting;
import io.podset.examples.greeting.GreetingOperator.GreetingSpec;
import io.podset.runtime.manager.Manager;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.junit5.WithFakeApiServer;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Mistakes an operator author makes get an error that says what to fix, not silence. */
@WithFakeApiServer
class GreetingMisconfiguredTest {

  @Test
  void crdWithoutTheStatusSubresource_failsTerminally_namingTheFix(
      FakeApiServer server, KubernetesClient client) throws Exception {
    CustomResourceDefinition crd;
    try (InputStream yaml =
        getClass().getResourceAsStream("/META-INF/fabric8/greetings.example.com-v1.yml")) {
      crd = client.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
    }
    crd.getSpec().getVersions().forEach(version -> version.setSubresources(null));
    server.installCrd(crd);
    try (Manager manager = Manager.builder(client).healthPort(0).metricsPort(0).build()) {
      GreetingOperator.register(manager);
      manager.start();
      Greeting greeting = new Greeting();
      greeting.getMetadata().setName("hello");
      greeting.setSpec(new GreetingSpec("Hello"));
      client.resource(greeting).inNamespace("default").create();

      Eventually.await(
          "a terminal failure",
          () ->
              manager
                  .meterRegistry()
                  .get("controller_runtime_terminal_reconcile_errors")
                  .tag("controller", "greeting")
                  .counter()
                  .count(),
          count -> count >= 1);
      assertThat(client.configMaps().withName("hello").get()).as("applied before").isNotNull();
    }
  }
}
