package io.podset.examples.stress;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podset.examples.website.Website;
import io.podset.examples.website.WebsiteSpec;
import io.podset.runtime.manager.Manager;
import io.podset.runtime.status.Conditions;
import io.podset.testkit.Eventually;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One run of the stale-cache stress scenario against a fresh fake API server: websites created,
 * their html changed several times in quick succession and some deleted, while the watch events of
 * pods and ConfigMaps arrive late; then the checks.
 */
final class StressRun {

  static final int SITES = 8;
  static final int CHANGES = 3;
  static final int DELETED = 2;
  static final Duration EVENT_DELAY = Duration.ofMillis(300);
  static final Duration CONVERGENCE = Duration.ofSeconds(30);

  /** What a run found; empty lists and zeros when the operator behaved. */
  record Outcome(int duplicateCreates, double reconcileErrors, List<String> wrongState) {
    boolean clean() {
      return duplicateCreates == 0 && reconcileErrors == 0 && wrongState.isEmpty();
    }
  }

  private StressRun() {}

  static Outcome run(Path crd, Consumer<Manager> register) throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        KubernetesClient operatorClient =
            new KubernetesClientBuilder()
                .withConfig(
                    new ConfigBuilder(server.clientConfig())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build()) {
      server.installCrds(crd);
      KubernetesClient client = server.client();
      Map<String, AtomicInteger> podsCreated = new ConcurrentHashMap<>();
      try (Watch podWatch = client.pods().inNamespace("default").watch(counting(podsCreated));
          Manager manager = Manager.builder(operatorClient).healthPort(0).metricsPort(0).build()) {
        register.accept(manager);
        server
            .faults()
            .add(FaultRule.match().resource("pods").inject(Fault.delayEvents(EVENT_DELAY)));
        server
            .faults()
            .add(FaultRule.match().resource("configmaps").inject(Fault.delayEvents(EVENT_DELAY)));
        manager.start();
        drive(client);
        List<String> wrong = awaitFinalState(client, podsCreated);
        int duplicates = 0;
        for (AtomicInteger created : podsCreated.values()) {
          duplicates += Math.max(0, created.get() - 1);
        }
        double errors =
            manager
                .meterRegistry()
                .get("controller_runtime_reconcile_errors")
                .tag("controller", "naive")
                .counter()
                .count();
        return new Outcome(duplicates, errors, wrong);
      }
    }
  }

  private static void drive(KubernetesClient client) throws InterruptedException {
    for (int i = 0; i < SITES; i++) {
      client.resource(site("site-" + i, "v0")).create();
    }
    for (int change = 1; change <= CHANGES; change++) {
      for (int i = 0; i < SITES; i++) {
        String html = "v" + change;
        // A merge patch without resourceVersion: the user's change never conflicts.
        client
            .resources(Website.class)
            .inNamespace("default")
            .withName("site-" + i)
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"html\":\"" + html + "\"}}");
      }
      Thread.sleep(EVENT_DELAY.toMillis() / 3); // changes arrive faster than the cache follows
    }
    for (int i = 0; i < DELETED; i++) {
      client.resources(Website.class).inNamespace("default").withName("site-" + i).delete();
    }
  }

  /**
   * Waits for the exact final state; returns what is still wrong at the deadline, or as soon as a
   * duplicate pod makes it unreachable.
   */
  private static List<String> awaitFinalState(
      KubernetesClient client, Map<String, AtomicInteger> podsCreated) {
    try {
      Eventually.within(CONVERGENCE)
          .until(
              "the final state, or a duplicate pod",
              () ->
                  podsCreated.values().stream().anyMatch(n -> n.get() > 1)
                      || finalStateProblems(client).isEmpty());
    } catch (AssertionError notConverged) {
      // reported below, as what is still wrong
    }
    return finalStateProblems(client);
  }

  private static List<String> finalStateProblems(KubernetesClient client) {
    List<String> wrong = new ArrayList<>();
    String html = "v" + CHANGES;
    for (int i = 0; i < SITES; i++) {
      String name = "site-" + i;
      Website site = client.resources(Website.class).inNamespace("default").withName(name).get();
      ConfigMap page = client.configMaps().inNamespace("default").withName(name + "-page").get();
      List<Pod> pods =
          client.pods().inNamespace("default").list().getItems().stream()
              .filter(p -> p.getMetadata().getName().startsWith(name + "-"))
              .filter(p -> !p.getMetadata().getName().equals(name + "-page"))
              .toList();
      if (i < DELETED) {
        if (site != null || page != null || !pods.isEmpty()) {
          wrong.add(name + " deleted but still there (site, page or pods)");
        }
        continue;
      }
      if (site == null || page == null || !html.equals(page.getData().get("index.html"))) {
        wrong.add(name + ": page not at " + html);
      }
      if (pods.size() != 1) {
        wrong.add(name + ": " + pods.size() + " pods instead of 1");
      }
      if (site != null
          && (site.getStatus() == null
              || !Conditions.find(site.getStatus().getConditions(), "Ready")
                  .map(c -> html.equals(c.getMessage()))
                  .orElse(false))) {
        wrong.add(name + ": status does not report " + html);
      }
    }
    return wrong;
  }

  private static Watcher<Pod> counting(Map<String, AtomicInteger> created) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (action == Action.ADDED && pod.getMetadata().getGenerateName() != null) {
          created
              .computeIfAbsent(pod.getMetadata().getGenerateName(), k -> new AtomicInteger())
              .incrementAndGet();
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  static Website site(String name, String html) {
    Website site = new Website();
    site.getMetadata().setName(name);
    site.getMetadata().setNamespace("default");
    site.setSpec(new WebsiteSpec(html, 1));
    return site;
  }
}
