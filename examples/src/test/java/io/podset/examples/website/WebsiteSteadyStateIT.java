package io.podset.examples.website;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.RequestJournal;
import io.podset.testkit.RequestMatcher;
import io.podset.testkit.junit5.WithFakeApiServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * After convergence, a minute of resyncs (every second) and unrelated changes in the same namespace
 * makes the operator write nothing: applies are skipped when the cache holds what they would write,
 * and the status is written only when it changed.
 */
@WithFakeApiServer(crds = "META-INF/fabric8/websites.example.com-v1.yml")
class WebsiteSteadyStateIT {

  private static final Duration QUIET = Duration.ofSeconds(Long.getLong("steady.seconds", 60));

  @Test
  void aMinuteOfResyncsAndUnrelatedEvents_makesNoWrites(
      FakeApiServer server, KubernetesClient client) throws InterruptedException {
    try (KubernetesClient operatorClient =
            new KubernetesClientBuilder()
                .withConfig(
                    new ConfigBuilder(server.clientConfig())
                        .withUserAgent("website-operator")
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        Manager manager = Manager.builder(operatorClient).healthPort(0).metricsPort(0).build()) {
      RecordingDirectory directory = new RecordingDirectory();
      new WebsiteReconciler(directory)
          .register(manager, InformerOptions.defaults().withResyncPeriod(Duration.ofSeconds(1)));
      manager.start();
      for (int i = 0; i < 3; i++) {
        client.resource(WebsiteOperatorTest.website("site-" + i, "<p>" + i + "</p>", 2)).create();
      }
      for (int i = 0; i < 3; i++) {
        String name = "site-" + i;
        Eventually.await(
            "Deployment " + name,
            () -> client.apps().deployments().withName(name).get(),
            d -> d != null);
        WebsiteOperatorTest.markReady(client, name, 2);
        Eventually.await(
            name + " Ready",
            () -> client.resources(Website.class).withName(name).get(),
            w ->
                w.getStatus() != null && Conditions.isTrue(w.getStatus().getConditions(), "Ready"));
      }

      RequestJournal.Mark converged = server.journal().mark();
      long reconcilesBefore = reconciles(manager);
      long end = System.nanoTime() + QUIET.toNanos();
      int unrelated = 0;
      while (System.nanoTime() < end) {
        client
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("unrelated-" + (unrelated % 5))
                    .endMetadata()
                    .addToData("n", Integer.toString(unrelated++))
                    .build())
            .inNamespace("default")
            .createOr(existing -> existing.update());
        Thread.sleep(200); // pacing of the unrelated traffic, not a wait for a condition
      }

      server
          .journal()
          .assertNone(
              RequestMatcher.writes().userAgentContaining("website-operator").since(converged));
      long reconciled = reconciles(manager) - reconcilesBefore;
      System.out.printf(
          "steady state: %d reconciles and %d unrelated changes in %s, 0 writes%n",
          reconciled, unrelated, QUIET);
      // Resyncs did reach the reconciler: the absence of writes is the skip, not idleness.
      assertThat(reconciled).isGreaterThanOrEqualTo(3 * (QUIET.toSeconds() / 2));
    }
  }

  private static long reconciles(Manager manager) {
    return (long)
        manager
            .meterRegistry()
            .get("controller_runtime_reconcile")
            .tag("controller", "website")
            .tag("result", "success")
            .counter()
            .count();
  }
}
