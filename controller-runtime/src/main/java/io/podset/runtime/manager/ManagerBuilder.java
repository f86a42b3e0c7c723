package io.podset.runtime.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Configures a {@link Manager}. Each method validates its argument at once and names the option in
 * its exception.
 */
public final class ManagerBuilder {

  /** A port value asking for any free port (see {@link Manager#healthPort()}), for tests. */
  public static final int ANY_FREE_PORT = -1;

  // Null when the manager builds (and closes) a client of its own.
  final @Nullable KubernetesClient client;
  @Nullable LeaderElectionConfig leaderElection;
  String bindAddress = "0.0.0.0";
  int healthPort = 8081;
  int metricsPort = 8080;
  Duration shutdownTimeout = Duration.ofSeconds(30);
  String component = "controller-manager";
  @Nullable String identity;
  Clock clock = Clock.system();
  @Nullable PrometheusMeterRegistry meterRegistry;

  ManagerBuilder(@Nullable KubernetesClient client) {
    this.client = client;
  }

  /** Enables leader election; without it every instance runs its controllers. */
  public ManagerBuilder leaderElection(LeaderElectionConfig config) {
    this.leaderElection = Objects.requireNonNull(config, "leaderElection");
    this.identity = config.identity();
    return this;
  }

  /**
   * Port of {@code /healthz} and {@code /readyz} (default 8081); 0 disables them, {@link
   * #ANY_FREE_PORT} picks a free one.
   */
  public ManagerBuilder healthPort(int port) {
    this.healthPort = requirePort(port, "healthPort");
    return this;
  }

  /**
   * Port of {@code /metrics} (default 8080); 0 disables it, {@link #ANY_FREE_PORT} picks a free
   * one. May equal the health port.
   */
  public ManagerBuilder metricsPort(int port) {
    this.metricsPort = requirePort(port, "metricsPort");
    return this;
  }

  /** Address the endpoints bind to (default all interfaces). */
  public ManagerBuilder bindAddress(String address) {
    this.bindAddress = Objects.requireNonNull(address, "bindAddress");
    return this;
  }

  /** How long {@link Manager#close()} waits for in-flight reconciles (default 30 s). */
  public ManagerBuilder shutdownTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "shutdownTimeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("shutdownTimeout must not be negative, got " + timeout);
    }
    this.shutdownTimeout = timeout;
    return this;
  }

  /** The component name on Events (default {@code controller-manager}). */
  public ManagerBuilder component(String component) {
    Objects.requireNonNull(component, "component");
    if (component.isBlank()) {
      throw new IllegalArgumentException("component must not be blank");
    }
    this.component = component;
    return this;
  }

  /** The clock for leader election and controllers (default: the system clock). */
  public ManagerBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** The registry served on {@code /metrics} (default: a new Prometheus registry). */
  public ManagerBuilder meterRegistry(PrometheusMeterRegistry registry) {
    this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
    return this;
  }

  /**
   * Builds the manager; nothing runs until {@link Manager#start()}. The manager keeps a copy of
   * this configuration: changing the builder afterwards, or building again, does not affect it
   * (each build without {@link #meterRegistry} gets its own registry).
   */
  public Manager build() {
    PrometheusMeterRegistry registry =
        meterRegistry != null
            ? meterRegistry
            : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    return new DefaultManager(this, registry, identity != null ? identity : defaultIdentity());
  }

  private static String defaultIdentity() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    return ProcessHandle.current().pid() + "@" + hostName();
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  private static int requirePort(int port, String option) {
    if (port < ANY_FREE_PORT || port > 65535) {
      throw new IllegalArgumentException(
          option + " must be between 0 and 65535, or ANY_FREE_PORT (-1), got " + port);
    }
    return port;
  }
}
