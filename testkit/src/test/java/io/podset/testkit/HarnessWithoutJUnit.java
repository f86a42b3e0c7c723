package io.podset.testkit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.informer.SharedInformer;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.reconcile.Reconciler;
import io.podset.runtime.reconcile.Result;
import java.time.Duration;
import java.util.Map;

/**
 * A program, not a test: run by {@link NoJUnitClassPathTest} in a JVM whose class path is the
 * testkit's runtime class path, to show that the server, the simulated kubelet and the harness work
 * with no JUnit there. Exits 0 after one reconcile labelled a ConfigMap, 1 otherwise.
 */
final class HarnessWithoutJUnit {

  private HarnessWithoutJUnit() {}

  public static void main(String[] args) {
    for (String junit :
        new String[] {"org.junit.jupiter.api.Test", "org.opentest4j.TestAbortedException"}) {
      try {
        Class.forName(junit);
        fail(junit + " is on the class path");
      } catch (ClassNotFoundException expected) {
        // what this program is for
      }
    }
    try (FakeApiServer server = FakeApiServer.builder().kubelet().start();
        ReconcileHarness harness =
            ReconcileHarness.builder(server)
                .controller(b -> b.forResource(ConfigMap.class))
                .reconciler(HarnessWithoutJUnit::labeller)
                .start()) {
      server
          .client()
          .configMaps()
          .resource(
              new ConfigMapBuilder().withNewMetadata().withName("probe").endMetadata().build())
          .create();
      ReconcileHarness.Report report = harness.runUntilQuiet(Duration.ofSeconds(30));
      ConfigMap labelled = server.client().configMaps().withName("probe").get();
      if (!report.quiet()
          || !report.errors().isEmpty()
          || !"yes".equals(labelled.getMetadata().getLabels().get("reconciled"))) {
        fail("the harness did not reconcile: " + report);
      }
      System.out.println(
          "reconciled without JUnit: "
              + report.reconciles()
              + ", "
              + report.writes().size()
              + " writes");
    }
  }

  private static Reconciler labeller(KubernetesClient client, SharedInformerFactory informers) {
    SharedInformer<ConfigMap> configMaps = informers.informerFor(ConfigMap.class);
    return request -> {
      ConfigMap cached =
          configMaps.indexer().getByKey(request.namespace() + "/" + request.name()).orElse(null);
      if (cached != null
          && (cached.getMetadata().getLabels() == null
              || !cached.getMetadata().getLabels().containsKey("reconciled"))) {
        client
            .configMaps()
            .inNamespace(request.namespace())
            .withName(request.name())
            .edit(
                cm ->
                    new ConfigMapBuilder(cm)
                        .editMetadata()
                        .addToLabels(Map.of("reconciled", "yes"))
                        .endMetadata()
                        .build());
      }
      return Result.done();
    };
  }

  private static void fail(String message) {
    System.err.println(message);
    System.exit(1);
  }
}
