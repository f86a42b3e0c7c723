package io.podset.examples.greeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podset.examples.greeting.GreetingOperator.Greeting;
import io.podset.examples.greeting.GreetingOperator.GreetingSpec;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.RequestMatcher;
import org.junit.jupiter.api.Test;

/**
 * The Greeting operator as its ServiceAccount, under the ClusterRole of {@code greeting-rbac.yaml}:
 * it converges without a refused request, and what the role does not grant is refused.
 */
class GreetingRbacTest {

  // tag::rbac[]
  @Test
  void runsAsItsServiceAccount_withTheRoleItIsGiven() {
    try (FakeApiServer server = FakeApiServer.builder().enforceRbac().start()) {
      KubernetesClient admin = server.client(); // system:masters
      server.installCrds(
          getClass().getResourceAsStream("/META-INF/fabric8/greetings.example.com-v1.yml"));
      admin.load(getClass().getResourceAsStream("/greeting-rbac.yaml")).create();
      KubernetesClient greeter = server.serviceAccountClient("default", "greeter");

      try (Manager manager = Manager.builder(greeter).healthPort(0).metricsPort(0).build()) {
        GreetingOperator.register(manager);
        manager.start();
        Greeting greeting = new Greeting();
        greeting.getMetadata().setName("hello");
        greeting.setSpec(new GreetingSpec("Hello, world"));
        admin.resource(greeting).inNamespace("default").create();
        Eventually.await(
            "the Greeting is Ready",
            () -> admin.resources(Greeting.class).withName("hello").get(),
            g ->
                g.getStatus() != null && Conditions.isTrue(g.getStatus().getConditions(), "Ready"));
      }
      // Nothing the operator asked for was refused: the journal knows who made each request.
      server
          .journal()
          .assertNone(
              RequestMatcher.any().user("system:serviceaccount:default:greeter").status(403));
      KubernetesClientException refused =
          catchThrowableOfType(KubernetesClientException.class, () -> greeter.secrets().list());
      assertThat(refused.getStatus().getMessage())
          .isEqualTo(
              "secrets is forbidden: User \"system:serviceaccount:default:greeter\" cannot list"
                  + " resource \"secrets\" in API group \"\" in the namespace \"default\"");
    }
  }
  // end::rbac[]
}
