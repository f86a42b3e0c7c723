package io.podset.runtime.client;

import io.netty.handler.ssl.DelegatingSslContext;
import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;

/**
 * A TLS context whose engines offer the ChaCha20-Poly1305 cipher suites first (TLS 1.3's and
 * ECDHE's, those the engine supports), then the suites enabled before, in their order (see {@link
 * ChaChaFirstHttpClientFactory} for why). The ChaCha20 suites are added where missing: Netty's
 * default list, which fabric8's context gets, leaves them out, though the JDK enables them by
 * default.
 */
final class ChaChaFirstSslContext extends DelegatingSslContext {

  ChaChaFirstSslContext(SslContext context) {
    super(context);
  }

  @Override
  protected void initEngine(SSLEngine engine) {
    engine.setEnabledCipherSuites(
        chaChaFirst(engine.getEnabledCipherSuites(), engine.getSupportedCipherSuites()));
  }

  /**
   * The ChaCha20-Poly1305 suites of {@code supported} (TLS 1.3's and ECDHE's, in their order), then
   * the other {@code enabled} ones in theirs.
   */
  static String[] chaChaFirst(String[] enabled, String[] supported) {
    List<String> ordered = new ArrayList<>(enabled.length + 3);
    for (String suite : supported) {
      if (isChaCha(suite)) {
        ordered.add(suite);
      }
    }
    for (String suite : enabled) {
      if (!ordered.contains(suite)) {
        ordered.add(suite);
      }
    }
    return ordered.toArray(String[]::new);
  }

  private static boolean isChaCha(String suite) {
    return suite.equals("TLS_CHACHA20_POLY1305_SHA256")
        || (suite.startsWith("TLS_ECDHE_") && suite.endsWith("_WITH_CHACHA20_POLY1305_SHA256"));
  }
}
