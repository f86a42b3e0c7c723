package io.podset.examples.greeting;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.examples.greeting.GreetingOperator.Greeting;
import io.podset.examples.greeting.GreetingOperator.GreetingSpec;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.junit5.WithFakeApiServer;
import org.junit.jupiter.api.Test;

// tag::test[]
@WithFakeApiServer(crds = "META-INF/fabric8/greetings.example.com-v1.yml")
class GreetingOperatorTest {

  @Test
  void publishesTheMessage_andReportsReady(KubernetesClient client) {
    try (Manager manager = Manager.builder(client).healthPort(0).metricsPort(0).build()) {
      GreetingOperator.register(manager);
      manager.start();
      Greeting greeting = new Greeting();
      greeting.getMetadata().setName("hello");
      greeting.setSpec(new GreetingSpec("Hello, world"));
      client.resource(greeting).inNamespace("default").create();

      Eventually.await(
          "the ConfigMap holds the message",
          () -> client.configMaps().withName("hello").get(),
          cm -> cm != null && "Hello, world".equals(cm.getData().get("message")));
      Eventually.await(
          "the Greeting is Ready",
          () -> client.resources(Greeting.class).withName("hello").get(),
          g -> g.getStatus() != null && Conditions.isTrue(g.getStatus().getConditions(), "Ready"));
    }
  }
}
// end::test[]
