package io.podset.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaChaFirstHttpClientFactoryTest {

  static final String CHACHA = "TLS_CHACHA20_POLY1305_SHA256";

  @TempDir Path dir;

  @Test
  void connectsWithChaCha20_toAServerTakingTheClientsChoice() throws Exception {
    assertThat(negotiated(new ChaChaFirstHttpClientFactory())).isEqualTo(CHACHA);
  }

  @Test
  void fabric8sVertxFactory_connectsWithTheJdksFirstChoice() throws Exception {
    assertThat(negotiated(new VertxHttpClientFactory())).isNotEqualTo(CHACHA);
  }

  @Test
  void chaChaFirst_putsTheSupportedChaChaSuitesFirst_keepsTheEnabledInOrder() {
    String[] enabled = {"TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", CHACHA};
    String[] supported = {
      "TLS_AES_128_GCM_SHA256",
      CHACHA,
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
    };

    assertThat(ChaChaFirstSslContext.chaChaFirst(enabled, supported))
        .containsExactly(
            CHACHA,
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
  }

  @Test
  void preferChaCha_whenC2CannotCompile() {
    assertThat(JitCiphers.preferChaCha(true, 1)).isTrue(); // C1 only, as deployed
    assertThat(JitCiphers.preferChaCha(true, 3)).isTrue();
    assertThat(JitCiphers.preferChaCha(true, 4)).isFalse();
    assertThat(JitCiphers.preferChaCha(false, 4)).isFalse(); // C2 alone
  }

  @Test
  void preferChaCha_readsTheFlagsOfAJvmRunningC1Only() throws Exception {
    String output =
        ChildJvm.run(
            List.of("-XX:TieredStopAtLevel=1"), ChildJvm.classPath(), PrintPreferChaCha.class);

    assertThat(output.strip()).isEqualTo("true");
  }

  /** Prints {@link JitCiphers#preferChaCha()} of its JVM. */
  static final class PrintPreferChaCha {
    public static void main(String[] args) {
      System.out.println(JitCiphers.preferChaCha());
    }
  }

  /**
   * The cipher suite of a GET through a client of {@code factory} ({@link ClientsChoiceTlsServer}).
   */
  private String negotiated(HttpClient.Factory factory) throws Exception {
    try (ClientsChoiceTlsServer server = ClientsChoiceTlsServer.start(dir)) {
      Config config =
          new ConfigBuilder()
              .withMasterUrl(server.url())
              .withTrustCerts(true)
              .withDisableHostnameVerification(true)
              .build();
      try (HttpClient client = factory.newBuilder(config).build()) {
        ClientsChoiceTlsServer.getVersion(client, server.url());
      }
      return server.negotiatedSuite();
    }
  }
}
