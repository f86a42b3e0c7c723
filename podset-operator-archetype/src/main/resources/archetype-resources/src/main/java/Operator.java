package ${package};

import ${package}.${kindLower}.${kind}Reconciler;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.runtime.manager.Manager;

/**
 * The operator's main: a manager with Lease leader election, {@code /healthz} and {@code /readyz}
 * on port 8081 and Prometheus {@code /metrics} on port 8080, and the controllers it runs.
 *
 * <p>The cluster comes from {@code $KUBECONFIG}, {@code ~/.kube/config} or the pod's service
 * account. Environment: {@code POD_NAMESPACE} (where the Lease lives, default {@code default}),
 * {@code POD_NAME} (this replica's identity in the Lease), {@code HEALTH_PORT}, {@code
 * METRICS_PORT}.
 */
public final class Operator {

  static final String LEASE_NAME = "${artifactId}";

  private Operator() {}

  public static void main(String[] args) {
    Manager manager =
        Manager.builder()
            .leaderElection(
                LeaderElectionConfig.of(
                    env("POD_NAMESPACE", "default"), LEASE_NAME, env("POD_NAME", LEASE_NAME)))
            .healthPort(port("HEALTH_PORT", env("HEALTH_PORT", "8081")))
            .metricsPort(port("METRICS_PORT", env("METRICS_PORT", "8080")))
            .build();
    register(manager);
    Runtime.getRuntime().addShutdownHook(new Thread(manager::close));
    manager.start();
    manager.terminated().join();
  }

  /** Registers every controller of this operator (one per API). */
  public static void register(Manager manager) {
    new ${kind}Reconciler().register(manager);
  }

  static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** The port {@code value} of the variable {@code name}; 0 disables the endpoint. */
  static int port(String name, String value) {
    try {
      int port = Integer.parseInt(value.trim());
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be a port in 0..65535: '" + value + "'");
  }
}
