package io.podset.runtime.client;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;

/** Client builders for this JVM: the ones the runtime uses for the clients it builds itself. */
public final class KubernetesClients {

  private KubernetesClients() {}

  /**
   * A new {@code KubernetesClientBuilder} that builds the HTTP client fabric8 would choose, except
   * that when that is fabric8's Vert.x client (no other HTTP client on the class path) and this JVM
   * has no C2 compiler, its TLS connections offer ChaCha20-Poly1305 before AES-GCM, which C1 runs
   * at a fifth of the speed (see {@code ChaChaFirstHttpClientFactory}). An HTTP client factory the
   * caller sets on the builder afterwards replaces this choice.
   */
  public static KubernetesClientBuilder builder() {
    // Set even when unchanged: fabric8 would otherwise look the factory up a second time.
    return new KubernetesClientBuilder()
        .withHttpClientFactory(
            httpClientFactory(HttpClientUtils.getHttpClientFactory(), JitCiphers.preferChaCha()));
  }

  /**
   * The factory to build with for fabric8's {@code chosen} one: only fabric8's own Vert.x factory
   * is replaced (not a subclass, nor another client a user added), and only if {@code
   * preferChaCha}.
   */
  static HttpClient.Factory httpClientFactory(HttpClient.Factory chosen, boolean preferChaCha) {
    if (preferChaCha && chosen.getClass() == VertxHttpClientFactory.class) {
      return new ChaChaFirstHttpClientFactory();
    }
    return chosen;
  }
}
