package io.podset.runtime.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.time.Clock;
import java.util.concurrent.ExecutorService;

/** A manager's leader election: the elector and the threads it runs on. */
final class Election {

  final LeaderElectionConfig config;
  final LeaderElector elector;
  private final ExecutorService thread = DaemonThreads.single("podset-leader-election");
  // Runs the Lease requests, so the election thread can abandon one that hangs.
  private final ExecutorService requests = DaemonThreads.cached("podset-lease-request");

  Election(
      LeaderElectionConfig config,
      KubernetesClient client,
      Clock clock,
      LeaderElector.Callbacks callbacks) {
    this.config = config;
    this.elector =
        new LeaderElector(
            config,
            new KubernetesLeaseStore(client, config.leaseNamespace(), config.leaseName()),
            clock,
            thread,
            requests,
            callbacks);
  }

  /** Stops campaigning (releasing the Lease when configured) and the threads. */
  void stop() {
    elector.stop(config.releaseOnCancel());
    thread.shutdown();
    requests.shutdown();
  }
}
