package io.podset.runtime.client;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * fabric8's Vert.x HTTP client factory, whose TLS connections offer ChaCha20-Poly1305 first; {@link
 * KubernetesClients#builder()} uses it in a JVM that cannot run AES-GCM fast ({@link
 * JitCiphers#preferChaCha()}).
 *
 * <p>Why: operators run with the C1 compiler only (the PodSet operator's deploy/operator.yaml and
 * the archetype's generated deploy), and the JDK's AES-GCM is fast only through the intrinsics of
 * C2 (AES-NI and carry-less multiplication). Compiled by C1 it decrypted and encrypted 38 MB/s
 * against ChaCha20-Poly1305's 177 MB/s in one JVM, and on a simulated cluster the TLS record layer
 * was 30 to 42% of the operator JVM's sampled CPU (mostly {@code GHASH.blockMult}): every watch
 * event, create response and request goes through it. Go's TLS server (kube-apiserver) takes the
 * client's first choice when that is ChaCha20; other servers choose as before, since every suite
 * the JDK enables stays enabled, only the order changes.
 *
 * <p>Never registered for fabric8's {@code ServiceLoader} look-up: a library provider would tie
 * either with the Vert.x factory (-1) or with the OkHttp or JDK factory (0) that a user adds on
 * purpose.
 */
final class ChaChaFirstHttpClientFactory extends VertxHttpClientFactory {

  /**
   * Wraps fabric8's TLS context factory (set just before for an {@code https} server) so that each
   * engine it makes offers ChaCha20 first. fabric8's own factory ignores Vert.x's cipher options,
   * so the order is set on the engines.
   */
  @Override
  protected void additionalConfig(WebClientOptions options) {
    super.additionalConfig(options);
    SSLEngineOptions engines = options.getSslEngineOptions();
    if (!options.isSsl() || !(engines instanceof JdkSSLEngineOptions)) {
      return;
    }
    options.setSslEngineOptions(
        new JdkSSLEngineOptions() {
          @Override
          public JdkSSLEngineOptions copy() {
            return this; // as fabric8's: the factory holds the client's one SSLContext
          }

          @Override
          public io.vertx.core.spi.tls.SslContextFactory sslContextFactory() {
            return () -> new ChaChaFirstSslContext(engines.sslContextFactory().create());
          }
        });
  }
}
