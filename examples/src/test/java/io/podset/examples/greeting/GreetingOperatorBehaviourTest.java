package io.podset.examples.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.Counter;
import io.podset.examples.greeting.GreetingOperator.Greeting;
import io.podset.examples.greeting.GreetingOperator.GreetingSpec;
import io.podset.runtime.controller.RecentFaults;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.manager.Manager;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultInjector;
import io.podset.testkit.FaultRule;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.junit5.WithFakeApiServer;
import org.junit.jupiter.api.Test;

/** The README's operator through a change, drift, deletion and injected server errors. */
@WithFakeApiServer(crds = "META-INF/fabric8/greetings.example.com-v1.yml")
class GreetingOperatorBehaviourTest {

  private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

  @Test
  void changeDriftDeleteAndInjectedFailures_allEndWithTheDesiredState(
      FakeApiServer server, KubernetesClient client) {
    FaultInjector.Handle errors =
        server
            .faults()
            .add(
                FaultRule.match()
                    .verbs("patch")
                    .resource("configmaps")
                    .times(2)
                    .inject(Fault.serverError(503)));
    try (Manager manager = Manager.builder(client).healthPort(0).metricsPort(0).build()) {
      GreetingOperator.register(manager);
      manager.start();
      Greeting greeting = new Greeting();
      greeting.getMetadata().setName("changing");
      greeting.setSpec(new GreetingSpec("one"));
      client.resource(greeting).inNamespace("default").create();
      awaitMessage(client, "changing", "one");
      assertThat(errors.injected()).as("503s answered to the operator's applies").isEqualTo(2);

      // Merge patches without a resourceVersion: the test's writes never conflict with the
      // operator's.
      client
          .resources(Greeting.class)
          .withName("changing")
          .patch(MERGE, "{\"spec\":{\"message\":\"two\"}}");
      awaitMessage(client, "changing", "two");

      client
          .configMaps()
          .withName("changing")
          .patch(MERGE, "{\"data\":{\"message\":\"tampered\"}}");
      Eventually.await(
          "the tampered ConfigMap is corrected",
          () -> client.configMaps().withName("changing").get(),
          cm -> "two".equals(cm.getData().get("message")));

      client.resources(Greeting.class).withName("changing").delete();
      Eventually.await(
          "the ConfigMap is garbage-collected with its Greeting",
          () -> client.configMaps().withName("changing").get() == null);
    }
  }

  @Test
  void greetingDeletedWhileItsCacheIsHeldBack_itsCollectedConfigMapIsNotCreatedAgain(
      FakeApiServer server, KubernetesClient client) {
    try (Manager manager = Manager.builder(client).healthPort(0).metricsPort(0).build()) {
      GreetingOperator.register(manager);
      manager.start();
      Greeting greeting = new Greeting();
      greeting.getMetadata().setName("gone");
      greeting.setSpec(new GreetingSpec("hello"));
      client.resource(greeting).inNamespace("default").create();
      awaitMessage(client, "gone", "hello");

      // The Greeting watch is held back: the cache will keep showing the Greeting once it is
      // deleted, and says so (it stops following).
      FaultInjector.Handle hold =
          server.faults().add(FaultRule.match().resource("greetings").inject(Fault.holdEvents()));
      SharedInformer<Greeting> greetings =
          manager.informers().informerFor(Greeting.class, InformerOptions.defaults());
      Eventually.await(
          "the Greeting cache silent for longer than it vouches for",
          () -> !greetings.following(RecentFaults.DEFAULT_TOLERANCE, RecentFaults.DEFAULT_SILENCE));
      RequestJournal.Mark deleted = server.journal().mark();
      double reconciles = reconciles(manager);

      // The garbage collector deletes its ConfigMap; that event reconciles the stale Greeting,
      // whose apply would create the ConfigMap again.
      client.resources(Greeting.class).withName("gone").delete();
      Eventually.await(
          "a reconcile of the stale Greeting, after the ConfigMap was collected",
          () ->
              client.configMaps().withName("gone").get() == null
                  && reconciles(manager) > reconciles);

      // Each such reconcile confirms the Greeting first and finds it gone (the ConfigMap's
      // events may bring more than one).
      assertThat(
              server
                  .journal()
                  .records(
                      RequestMatcher.verb("get").resource("greetings").name("gone").since(deleted)))
          .as("confirming GETs")
          .isNotEmpty()
          .allSatisfy(get -> assertThat(get.status()).as(get.toString()).isEqualTo(404));
      server.journal().assertNone(RequestMatcher.writes().resource("configmaps").since(deleted));
      assertThat(client.configMaps().withName("gone").get()).isNull();
      hold.remove();
      Eventually.await("the deletion shown", () -> greetings.indexer().list().isEmpty());
    }
  }

  private static double reconciles(Manager manager) {
    Counter counter =
        manager
            .meterRegistry()
            .find("controller_runtime_reconcile")
            .tag("controller", "greeting")
            .tag("result", "success")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private static void awaitMessage(KubernetesClient client, String name, String message) {
    Eventually.await(
        "the ConfigMap says " + message,
        () -> client.configMaps().withName(name).get(),
        cm -> cm != null && message.equals(cm.getData().get("message")));
  }
}
