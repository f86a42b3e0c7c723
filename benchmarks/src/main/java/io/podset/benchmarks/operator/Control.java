package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The hand-shake between a server JVM's driver and a contender JVM, and the clients both use: the
 * contender creates the ConfigMap {@value #READY} (namespace {@code default}, {@code
 * data.contender}) once it runs; the driver waits for it.
 */
final class Control {

  /** The ConfigMap a contender creates once it runs. */
  static final String READY = "bench-contender-ready";

  /** The user agent of the driver's client: its requests are not the contender's API calls. */
  static final String DRIVER_AGENT = "podset-bench-driver";

  private static final String NAMESPACE = "default";

  private Control() {}

  /**
   * A fabric8 client on the Vert.x backend without client-side limits (1000 concurrent requests,
   * 5-minute request timeout); {@code userAgent} null for fabric8's default.
   */
  static KubernetesClient client(URI url, String userAgent) {
    Objects.requireNonNull(url, "url");
    ConfigBuilder config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url.toString())
            .withNamespace(NAMESPACE)
            .withRequestTimeout((int) TimeUnit.MINUTES.toMillis(5))
            .withMaxConcurrentRequests(1_000)
            .withMaxConcurrentRequestsPerHost(1_000);
    if (userAgent != null) {
      config.withUserAgent(userAgent);
    }
    return new KubernetesClientBuilder()
        .withConfig(config.build())
        .withHttpClientFactory(new VertxHttpClientFactory())
        .build();
  }

  /** Says the contender runs: creates the {@value #READY} ConfigMap. */
  static void announce(KubernetesClient client, String contender) {
    ConfigMap ready =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(READY)
            .withNamespace(NAMESPACE)
            .endMetadata()
            .addToData("contender", contender)
            .build();
    client.configMaps().inNamespace(NAMESPACE).resource(ready).create();
  }

  /**
   * Waits for a contender to announce itself and returns its name.
   *
   * @throws IllegalStateException if none did within {@code timeout}
   */
  static String awaitContender(KubernetesClient client, Duration timeout) {
    return awaitConfigMap(client, READY, timeout, "no contender announced itself")
        .getData()
        .get("contender");
  }

  /**
   * Waits, by watching rather than polling, until ConfigMap {@code name} exists in {@code default}.
   *
   * @throws IllegalStateException naming {@code what} if it did not appear within {@code timeout}
   */
  static ConfigMap awaitConfigMap(
      KubernetesClient client, String name, Duration timeout, String what) {
    try {
      return client
          .configMaps()
          .inNamespace(NAMESPACE)
          .withName(name)
          .waitUntilCondition(Objects::nonNull, timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (KubernetesClientException e) {
      throw new IllegalStateException(what + " within " + timeout + " (ConfigMap " + name + ")", e);
    }
  }
}
