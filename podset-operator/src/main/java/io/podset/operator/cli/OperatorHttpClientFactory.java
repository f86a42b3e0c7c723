package io.podset.operator.cli;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The operator's HTTP client factory, found by fabric8's {@code ServiceLoader} look-up (so every
 * client in the operator's JVM uses it: the manager's, the leader elector's, the preflight's):
 * fabric8's Vert.x client, whose TLS connections offer ChaCha20-Poly1305 first when this JVM cannot
 * run AES-GCM fast ({@link JitCiphers#preferChaCha()}).
 *
 * <p>Why: the operator runs with the C1 compiler only (deploy/operator.yaml), and the JDK's AES-GCM
 * is fast only through the intrinsics of C2 (AES-NI and carry-less multiplication). Compiled by C1
 * it decrypted and encrypted 38 MB/s against ChaCha20-Poly1305's 177 MB/s in one JVM, and on a
 * simulated cluster the TLS record layer was 30 to 42% of the operator JVM's sampled CPU (mostly
 * {@code GHASH.blockMult}): every watch event, create response and request goes through it. Go's
 * TLS server (kube-apiserver) takes the client's first choice when that is ChaCha20; other servers
 * choose as before, since every suite the JDK enables stays enabled, only the order changes.
 *
 * <p>Public only for {@code ServiceLoader}. Its priority (0) is above the Vert.x factory's (-1).
 */
public final class OperatorHttpClientFactory extends VertxHttpClientFactory {

  private final boolean preferChaCha;

  /** The factory for this JVM: ChaCha20 first if {@link JitCiphers#preferChaCha()}. */
  public OperatorHttpClientFactory() {
    this(JitCiphers.preferChaCha());
  }

  OperatorHttpClientFactory(boolean preferChaCha) {
    this.preferChaCha = preferChaCha;
  }

  @Override
  public int priority() {
    return 0;
  }

  /**
   * Wraps fabric8's TLS context factory (set just before for an {@code https} server) so that each
   * engine it makes offers ChaCha20 first. fabric8's own factory ignores Vert.x's cipher options,
   * so the order is set on the engines.
   */
  @Override
  protected void additionalConfig(WebClientOptions options) {
    super.additionalConfig(options);
    SSLEngineOptions engines = options.getSslEngineOptions();
    if (!preferChaCha || !options.isSsl() || !(engines instanceof JdkSSLEngineOptions)) {
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
