package io.podset.operator.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.client.ApiFailures;
import io.podset.runtime.client.KubernetesClients;
import io.podset.runtime.manager.LeaderElectionConfig;
import io.podset.runtime.manager.Manager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run of the operator with parsed options: preflight, wiring, then wait for shutdown. */
final class OperatorRun {

  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  /** The operator's {@code User-Agent}: {@code podset-operator/<version>}. */
  static final String USER_AGENT =
      "podset-operator/"
          + java.util.Objects.requireNonNullElse(
              OperatorRun.class.getPackage().getImplementationVersion(), "dev");

  private final OperatorCommand options;
  private Logger log;

  OperatorRun(OperatorCommand options) {
    this.options = options;
  }

  int run() {
    // Before the first logger: logback.xml reads the format and level from system properties.
    LogSetup.apply(options.logFormat, options.logLevel);
    log = LoggerFactory.getLogger(OperatorRun.class);
    String usageError = validate();
    if (usageError != null) {
      System.err.println("podset-operator: " + usageError);
      return USAGE;
    }
    try {
      Config config = clusterConfig();
      identify(config);
      try (KubernetesClient client = KubernetesClients.builder().withConfig(config).build()) {
        String problem = Preflight.check(client);
        if (problem != null) {
          log.error(problem);
          return FAILED;
        }
        return runManager(client);
      }
    } catch (RuntimeException e) {
      log.error("podset-operator failed: {}", ApiFailures.describe(e));
      log.debug("Failure detail", e);
      return FAILED;
    }
  }

  private int runManager(KubernetesClient client) {
    Manager manager = buildManager(client);
    Thread hook = new Thread(manager::close, "podset-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      manager.start();
      log.info(
          "podset-operator started: watching {}, {} worker(s), health port {}, metrics port {}",
          options.namespaces.isEmpty() ? "all namespaces" : String.join(",", options.namespaces),
          options.workers,
          manager.healthPort(),
          manager.metricsPort());
      manager.terminated().get();
      return OK;
    } catch (ExecutionException | CompletionException e) {
      log.error("podset-operator stopped: {}", ApiFailures.describe(e.getCause()));
      return FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return FAILED;
    } finally {
      manager.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: the JVM is exiting anyway.
      }
    }
  }

  private Manager buildManager(KubernetesClient client) {
    var builder =
        Manager.builder(client)
            .component("podset-operator")
            .healthPort(options.healthPort)
            .metricsPort(options.metricsPort);
    if (options.leaderElect) {
      builder.leaderElection(
          LeaderElectionConfig.of(options.leaseNamespace, options.leaseName, Identity.current()));
    }
    Manager manager = builder.build();
    List<String> namespaces = options.namespaces.isEmpty() ? List.of() : options.namespaces;
    PodSetControllers.register(manager, namespaces, options.workers);
    return manager;
  }

  /**
   * Our settings on top of the cluster's: a user agent naming the operator (audit logs and request
   * journals tell its requests apart), and no retries inside fabric8. fabric8 retries a 5xx up to
   * ten times with exponential backoff by default; the controller's rate limiter owns retries
   * instead, so one reconcile makes one attempt per write and a failing API server is backed off
   * per key, and a failed Lease renewal returns to the elector at once.
   */
  static void identify(Config config) {
    config.setUserAgent(USER_AGENT);
    config.setRequestRetryBackoffLimit(0);
  }

  private Config clusterConfig() {
    Config config;
    if (options.kubeconfig != null) {
      try {
        String content = Files.readString(options.kubeconfig);
        config = Config.fromKubeconfig(options.context, content, options.kubeconfig.toString());
      } catch (IOException e) {
        throw new UncheckedIOException(
            "--kubeconfig " + options.kubeconfig + ": cannot read: " + e.getMessage(), e);
      }
    } else {
      config = Config.autoConfigure(options.context);
    }
    if (options.insecureSkipTlsVerify) {
      log.warn("TLS verification of the API server is OFF (--insecure-skip-tls-verify)");
      config.setTrustCerts(true);
      config.setDisableHostnameVerification(true);
    }
    return config;
  }

  private String validate() {
    if (options.workers < 1 || options.workers > 1024) {
      return "--workers must be between 1 and 1024, got " + options.workers;
    }
    if (options.metricsPort < 0 || options.metricsPort > 65535) {
      return "--metrics-port must be between 0 and 65535, got " + options.metricsPort;
    }
    if (options.healthPort < 0 || options.healthPort > 65535) {
      return "--health-port must be between 0 and 65535, got " + options.healthPort;
    }
    for (String namespace : options.namespaces) {
      if (!namespace.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") || namespace.length() > 63) {
        return "--namespace must be a DNS-1123 label, got '" + namespace + "'";
      }
    }
    return null;
  }
}
