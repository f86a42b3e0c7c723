package io.podset.operator.reliability;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.operator.PodSetController;
import io.podset.operator.PodSetOptions;
import io.podset.runtime.event.Event;
import io.podset.runtime.informer.InformerOptions;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.runtime.manager.Manager;
import io.podset.testkit.FakeApiServer;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One in-process instance of the operator as {@code main} wires it (a {@link Manager} with the
 * PodSet controller for all namespaces, optionally leader election), talking to the API server
 * through its own {@link TcpProxy} with its own user agent ({@code podset-operator/<name>}), so the
 * journal tells instances apart and {@link #kill()} can cut one off like a crash.
 */
final class OperatorInstance implements AutoCloseable {

  /** The user agent prefix shared by every instance. */
  static final String USER_AGENT_PREFIX = "podset-operator/";

  private final String name;
  private final TcpProxy proxy;
  private final KubernetesClient client;
  private final Manager manager;

  private OperatorInstance(String name, TcpProxy proxy, KubernetesClient client, Manager manager) {
    this.name = name;
    this.proxy = proxy;
    this.client = client;
    this.manager = manager;
  }

  /**
   * Starts an instance.
   *
   * @param leaderElection null to run without leader election
   */
  static OperatorInstance start(
      FakeApiServer server, String name, LeaderElectionConfig leaderElection, int workers) {
    return start(server, name, leaderElection, workers, event -> true);
  }

  /**
   * Starts an instance whose controller passes every event through {@code eventFilter} first, on
   * the informers' handler threads (a test hook: {@link SlowHandlerFault}).
   *
   * @param leaderElection null to run without leader election
   */
  static OperatorInstance start(
      FakeApiServer server,
      String name,
      LeaderElectionConfig leaderElection,
      int workers,
      Predicate<? super Event<? extends HasMetadata>> eventFilter) {
    Objects.requireNonNull(server, "server");
    return start(server.clientConfig(), server.url(), name, leaderElection, workers, eventFilter);
  }

  /**
   * Starts an instance against any API server on loopback (the fake or a real kube-apiserver),
   * authenticated as {@code serverConfig} says.
   *
   * @param leaderElection null to run without leader election
   */
  static OperatorInstance start(
      Config serverConfig,
      URI serverUrl,
      String name,
      LeaderElectionConfig leaderElection,
      int workers) {
    return start(serverConfig, serverUrl, name, leaderElection, workers, event -> true);
  }

  /**
   * Starts an instance against any API server on loopback, whose controller passes every event
   * through {@code eventFilter} first (see {@link #start(FakeApiServer, String,
   * LeaderElectionConfig, int, Predicate)}).
   *
   * @param leaderElection null to run without leader election
   */
  static OperatorInstance start(
      Config serverConfig,
      URI serverUrl,
      String name,
      LeaderElectionConfig leaderElection,
      int workers,
      Predicate<? super Event<? extends HasMetadata>> eventFilter) {
    Objects.requireNonNull(serverConfig, "serverConfig");
    Objects.requireNonNull(eventFilter, "eventFilter");
    Objects.requireNonNull(name, "name");
    TcpProxy proxy = TcpProxy.start(serverUrl.getPort());
    Config config =
        new ConfigBuilder(serverConfig)
            .withMasterUrl(serverUrl.getScheme() + "://127.0.0.1:" + proxy.port())
            .withUserAgent(USER_AGENT_PREFIX + name)
            // As main (OperatorRun.identify): no retries inside fabric8, the controller's rate
            // limiter owns them; a create retried after a lost answer would duplicate a pod.
            .withRequestRetryBackoffLimit(0)
            .build();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    var builder =
        Manager.builder(client)
            .component("podset-operator")
            .healthPort(0)
            .metricsPort(0)
            .shutdownTimeout(Duration.ofSeconds(10));
    if (leaderElection != null) {
      builder.leaderElection(leaderElection);
    }
    Manager manager = builder.build();
    manager.addController(
        () ->
            PodSetController.create(
                manager.controllerBuilder().withEventFilter(eventFilter),
                manager.client(),
                manager.informers(),
                manager.eventRecorder(),
                PodSetOptions.defaults().withWorkers(workers),
                InformerOptions.defaults()));
    manager.start();
    return new OperatorInstance(name, proxy, client, manager);
  }

  /** The instance's name. */
  String name() {
    return name;
  }

  /** The user agent of its requests. */
  String userAgent() {
    return USER_AGENT_PREFIX + name;
  }

  /** The instance's manager. */
  Manager manager() {
    return manager;
  }

  /**
   * Kills the instance without a graceful shutdown: its connections are reset and nothing it sends
   * afterwards reaches the server (no drain, no Lease release). Its threads are then stopped in the
   * background, to free the test's resources; their requests all fail.
   */
  void kill() {
    proxy.kill();
    Thread reaper =
        new Thread(
            () -> {
              manager.shutdown(Duration.ZERO);
              client.close();
            },
            "reap-" + name);
    reaper.setDaemon(true);
    reaper.start();
  }

  /** Stops gracefully (drain, Lease release), then closes the connections. */
  @Override
  public void close() {
    try {
      manager.close();
      client.close();
    } finally {
      proxy.close();
    }
  }
}
