package io.podset.examples.website;

import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.runtime.manager.Manager;

/** The Website operator's main: a manager with leader election, health and metrics endpoints. */
public final class WebsiteOperator {

  private WebsiteOperator() {}

  public static void main(String[] args) {
    String namespace = System.getenv().getOrDefault("POD_NAMESPACE", "default");
    String identity = System.getenv().getOrDefault("POD_NAME", "website-operator-local");
    Manager manager =
        Manager.builder()
            .leaderElection(LeaderElectionConfig.of(namespace, "website-operator", identity))
            .build();
    new WebsiteReconciler(SiteDirectory.logging()).register(manager);
    Runtime.getRuntime().addShutdownHook(new Thread(manager::close));
    manager.start();
    manager.terminated().join();
  }
}
