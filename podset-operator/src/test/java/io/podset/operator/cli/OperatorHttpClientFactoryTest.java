package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorHttpClientFactoryTest {

  private static final String CHACHA = "TLS_CHACHA20_POLY1305_SHA256";

  @TempDir Path dir;

  @Test
  void serviceLoader_findsTheOperatorsFactory() {
    assertThat(HttpClientUtils.getHttpClientFactory())
        .isInstanceOf(OperatorHttpClientFactory.class);
  }

  @Test
  void preferChaCha_connectsWithChaCha20_toAServerTakingTheClientsChoice() throws Exception {
    assertThat(negotiated(new OperatorHttpClientFactory(true))).isEqualTo(CHACHA);
  }

  @Test
  void withoutPreference_connectsWithTheJdksFirstChoice() throws Exception {
    assertThat(negotiated(new OperatorHttpClientFactory(false))).isNotEqualTo(CHACHA);
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
    Process jvm =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                PrintPreferChaCha.class.getName())
            .redirectErrorStream(true)
            .start();
    String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(output.strip()).isEqualTo("true");
  }

  /** Prints {@link JitCiphers#preferChaCha()} of its JVM. */
  static final class PrintPreferChaCha {
    public static void main(String[] args) {
      System.out.println(JitCiphers.preferChaCha());
    }
  }

  /**
   * The cipher suite of a GET through a client of {@code factory} to a TLS server that takes the
   * client's preference (as Go's does for ChaCha20) and enables every suite the JDK does.
   */
  private String negotiated(OperatorHttpClientFactory factory) throws Exception {
    SSLContext server = SelfSignedTls.serverContext(dir);
    try (SSLServerSocket socket =
        (SSLServerSocket)
            server
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setUseCipherSuitesOrder(false);
      socket.setSSLParameters(parameters);
      CompletableFuture<String> suite = CompletableFuture.supplyAsync(() -> answerOnce(socket));
      Config config =
          new ConfigBuilder()
              .withMasterUrl("https://127.0.0.1:" + socket.getLocalPort())
              .withTrustCerts(true)
              .withDisableHostnameVerification(true)
              .build();
      try (HttpClient client = factory.newBuilder(config).build()) {
        HttpResponse<String> response =
            client
                .sendAsync(
                    client
                        .newHttpRequestBuilder()
                        .uri(URI.create(config.getMasterUrl() + "/version"))
                        .build(),
                    String.class)
                .get(30, TimeUnit.SECONDS);
        assertThat(response.code()).isEqualTo(200);
      }
      return suite.get(30, TimeUnit.SECONDS);
    }
  }

  /** Accepts one connection, answers one request with 200 and returns the suite negotiated. */
  private static String answerOnce(SSLServerSocket server) {
    try (SSLSocket socket = (SSLSocket) server.accept()) {
      socket.startHandshake();
      String suite = socket.getSession().getCipherSuite();
      InputStream in = socket.getInputStream();
      byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      byte[] last = new byte[4];
      while (!Arrays.equals(last, end)) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("the request ended before its headers did");
        }
        System.arraycopy(last, 1, last, 0, 3);
        last[3] = (byte) b;
      }
      OutputStream out = socket.getOutputStream();
      out.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return suite;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
