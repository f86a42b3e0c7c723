package io.podset.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A TLS server for one request that takes the client's cipher suite preference (as Go's does for
 * ChaCha20), enables every suite the JDK does and reports the suite negotiated.
 */
public final class ClientsChoiceTlsServer implements AutoCloseable {

  private final SSLServerSocket socket;
  private final CompletableFuture<String> suite;

  private ClientsChoiceTlsServer(SSLServerSocket socket) {
    this.socket = socket;
    this.suite = CompletableFuture.supplyAsync(this::answerOnce);
  }

  /** A server listening on 127.0.0.1 with a fresh self-signed certificate made in {@code dir}. */
  public static ClientsChoiceTlsServer start(Path dir) throws Exception {
    SSLServerSocket socket =
        (SSLServerSocket)
            SelfSignedTls.serverContext(dir)
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress());
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setUseCipherSuitesOrder(false);
    socket.setSSLParameters(parameters);
    return new ClientsChoiceTlsServer(socket);
  }

  /** The server's URL, {@code https://127.0.0.1:<port>}. */
  public String url() {
    return "https://127.0.0.1:" + socket.getLocalPort();
  }

  /** The suite of the one connection, waiting up to 30 s for it. */
  public String negotiatedSuite() throws Exception {
    return suite.get(30, TimeUnit.SECONDS);
  }

  /** Sends {@code GET /version} through {@code client}'s HTTP client and expects a 200. */
  public static void getVersion(KubernetesClient client) throws Exception {
    getVersion(client.getHttpClient(), client.getConfiguration().getMasterUrl());
  }

  /** Sends {@code GET /version} to {@code url} through {@code client} and expects a 200. */
  public static void getVersion(HttpClient client, String url) throws Exception {
    HttpResponse<String> response =
        client
            .sendAsync(
                client.newHttpRequestBuilder().uri(URI.create(url + "/version")).build(),
                String.class)
            .get(30, TimeUnit.SECONDS);
    assertThat(response.code()).isEqualTo(200);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /**
   * Accepts one connection, answers one request with 200 and returns the suite negotiated; then
   * stops listening, so that a client's further requests fail at once.
   */
  private String answerOnce() {
    try (SSLServerSocket listening = socket;
        SSLSocket connection = (SSLSocket) listening.accept()) {
      connection.startHandshake();
      String negotiated = connection.getSession().getCipherSuite();
      InputStream in = connection.getInputStream();
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
      OutputStream out = connection.getOutputStream();
      out.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return negotiated;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
