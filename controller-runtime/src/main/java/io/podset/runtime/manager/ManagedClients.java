package io.podset.runtime.manager;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.client.KubernetesClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The client a manager builds for itself, and what a client passed in does with failures. */
final class ManagedClients {

  private static final Logger log = LoggerFactory.getLogger(ManagedClients.class);

  private ManagedClients() {}

  /**
   * A client configured from the environment as {@code kubectl} would be, with fabric8's internal
   * request retries off so that every failure reaches the controller's backoff and metrics, and
   * this JVM's HTTP client ({@link KubernetesClients#builder()}: ChaCha20 first under C1 only).
   */
  static KubernetesClient fromEnvironment() {
    Config config =
        new ConfigBuilder(Config.autoConfigure(null)).withRequestRetryBackoffLimit(0).build();
    return KubernetesClients.builder().withConfig(config).build();
  }

  /** Logs once what the retry settings of a client passed in mean for the controllers. */
  static void describeRetries(KubernetesClient client) {
    Config config = client.getConfiguration();
    int retries = config.getRequestRetryBackoffLimit();
    if (retries > 0) {
      log.info(
          "The client retries a failed request up to {} times (requestRetryBackoffLimit, first"
              + " backoff {} ms) before a reconcile sees the failure; build it with"
              + " requestRetryBackoffLimit(0), or use Manager.builder() without a client, to"
              + " leave retries to the controllers' backoff and metrics",
          retries,
          config.getRequestRetryBackoffInterval());
    } else {
      log.info("The client does not retry failed requests: the controllers' backoff does");
    }
  }
}
