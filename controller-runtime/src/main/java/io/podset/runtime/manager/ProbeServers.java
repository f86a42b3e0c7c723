package io.podset.runtime.manager;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The manager's HTTP endpoints: {@code /healthz} and {@code /readyz} on the health port, {@code
 * /metrics} on the metrics port, or all three on one server when both ports are the same. A port of
 * 0 serves nothing; {@link ManagerBuilder#ANY_FREE_PORT} takes any free port.
 */
final class ProbeServers implements AutoCloseable {

  private final List<HealthServer> servers;
  private final int healthPort;
  private final int metricsPort;

  private ProbeServers(List<HealthServer> servers, int healthPort, int metricsPort) {
    this.servers = servers;
    this.healthPort = healthPort;
    this.metricsPort = metricsPort;
  }

  /**
   * Starts the servers; none is left running when one fails to start.
   *
   * @throws IllegalStateException when a port cannot be bound
   */
  static ProbeServers start(
      String bindAddress,
      int healthPort,
      int metricsPort,
      Readiness readiness,
      PrometheusMeterRegistry meterRegistry) {
    Map<String, Supplier<HealthServer.Response>> health = new LinkedHashMap<>();
    health.put("/healthz", readiness::liveness);
    health.put("/readyz", readiness::readiness);
    Map<String, Supplier<HealthServer.Response>> metrics =
        Map.of(
            "/metrics",
            () ->
                new HealthServer.Response(
                    200, "text/plain; version=0.0.4; charset=utf-8", meterRegistry.scrape()));
    List<HealthServer> started = new ArrayList<>();
    try {
      if (healthPort > 0 && healthPort == metricsPort) {
        Map<String, Supplier<HealthServer.Response>> both = new LinkedHashMap<>(health);
        both.putAll(metrics);
        HealthServer server = HealthServer.start("healthPort", bindAddress, healthPort, both);
        started.add(server);
        return new ProbeServers(started, server.port(), server.port());
      }
      int boundHealth = -1;
      int boundMetrics = -1;
      if (healthPort != 0) {
        HealthServer server =
            HealthServer.start("healthPort", bindAddress, bindable(healthPort), health);
        started.add(server);
        boundHealth = server.port();
      }
      if (metricsPort != 0) {
        HealthServer server =
            HealthServer.start("metricsPort", bindAddress, bindable(metricsPort), metrics);
        started.add(server);
        boundMetrics = server.port();
      }
      return new ProbeServers(started, boundHealth, boundMetrics);
    } catch (RuntimeException e) {
      started.forEach(HealthServer::close);
      throw e;
    }
  }

  /** The bound health port, or -1 when none is served. */
  int healthPort() {
    return healthPort;
  }

  /** The bound metrics port, or -1 when none is served. */
  int metricsPort() {
    return metricsPort;
  }

  @Override
  public void close() {
    servers.forEach(HealthServer::close);
  }

  private static int bindable(int port) {
    return port == ManagerBuilder.ANY_FREE_PORT ? 0 : port;
  }
}
