package io.podset.operator.cli;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.api.v1alpha1.PodSet;
import io.podset.api.v1alpha1.PodSetSpec;
import io.podset.runtime.client.SelfSignedTls;
import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import io.podset.testkit.KubeletOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Security promises of the packaged operator: no credential or secret value ever reaches its
 * output, even at trace level and in failure paths; the API server's certificate is verified unless
 * the operator is told otherwise by an explicit option.
 */
class SecurityIT {

  private static final String TOKEN = "podset-test-token-8f14e45fceea167a5a36dedd4bea2543";
  private static final String SECRET_VALUE = "hunter2-database-password";

  @TempDir Path dir;

  @Test
  void tokenAndSecretValues_neverLogged_atTraceLevel_inTextAndJson() throws Exception {
    try (FakeApiServer server =
        FakeApiServer.builder().kubelet(KubeletOptions.immediate()).start()) {
      server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
      KubernetesClient admin = server.client();
      admin
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName("sec").endMetadata().build())
          .create();
      admin
          .secrets()
          .inNamespace("sec")
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("db")
                  .endMetadata()
                  .addToStringData("password", SECRET_VALUE)
                  .build())
          .create();
      Path kubeconfig = tokenKubeconfig(server.url().toString());

      // A working run at trace level: list, watch, create pods, write status, record Events.
      Path textLog = dir.resolve("text.log");
      Process operator = startOperator(kubeconfig, textLog, "text", 0);
      admin
          .resources(PodSet.class)
          .inNamespace("sec")
          .resource(PodSet.of("sec", "web", PodSetSpec.ofReplicas(2)))
          .create();
      await(
          "2 ready pods",
          () -> {
            PodSet web = admin.resources(PodSet.class).inNamespace("sec").withName("web").get();
            return web.getStatus() != null && web.getStatus().readyReplicas() == 2;
          });
      operator.destroy();
      assertThat(operator.waitFor(40, TimeUnit.SECONDS)).as("graceful exit").isTrue();

      // Credentials revoked while running, in JSON: refusals are logged and /readyz says so. The
      // refusal spares /version and discovery, so the operator gets past its preflight.
      server
          .faults()
          .add(
              FaultRule.match()
                  .resourceRequestsOnly()
                  .inject(Fault.status(401, "Unauthorized", "Unauthorized")));
      Path jsonLog = dir.resolve("json.log");
      int healthPort;
      try (ServerSocket socket = new ServerSocket(0)) {
        healthPort = socket.getLocalPort();
      }
      Process refused = startOperator(kubeconfig, jsonLog, "json", healthPort);
      try {
        await("the refusal logged", () -> read(jsonLog).contains("401 Unauthorized"));
        HttpResponse<String> readyz =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(readyz.statusCode()).as("readyz: " + readyz.body()).isEqualTo(503);
      } finally {
        refused.destroy();
        assertThat(refused.waitFor(40, TimeUnit.SECONDS)).as("graceful exit").isTrue();
      }

      String text = Files.readString(textLog);
      String json = Files.readString(jsonLog);
      assertThat(text).contains("podset-operator started").contains("TRACE");
      assertThat(json).contains("401 Unauthorized");
      for (String output : List.of(text, json)) {
        assertThat(output)
            .doesNotContain(TOKEN)
            .doesNotContain(TOKEN.substring(0, 16))
            .doesNotContain(SECRET_VALUE)
            .doesNotContain(base64(SECRET_VALUE));
      }
    }
  }

  @Test
  void tlsVerification_isOnByDefault_andOffOnlyByTheExplicitOption() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(SelfSignedTls.serverContext(dir)));
    https.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(404, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    https.start();
    try {
      String url = "https://127.0.0.1:" + https.getAddress().getPort();
      Path kubeconfig = tokenKubeconfig(url);

      String verified = runInProcess("--kubeconfig", kubeconfig.toString());
      assertThat(verified).contains("cannot reach the API server at " + url);
      assertThat(verified.toLowerCase()).containsAnyOf("certificat", "pkix");
      assertThat(requests).as("no request is sent over an unverified connection").hasValue(0);

      String insecure =
          runInProcess("--kubeconfig", kubeconfig.toString(), "--insecure-skip-tls-verify");
      assertThat(insecure).contains("TLS verification of the API server is OFF");
      assertThat(requests).as("requests sent once verification is off").hasPositiveValue();
      assertThat(verified + insecure).doesNotContain(TOKEN);
    } finally {
      https.stop(0);
    }
  }

  private String runInProcess(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      String[] all = new String[args.length + 4];
      System.arraycopy(args, 0, all, 0, args.length);
      System.arraycopy(
          new String[] {"--health-port", "0", "--metrics-port", "0"}, 0, all, args.length, 4);
      assertThat(Main.execute(all)).isEqualTo(1);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  private Process startOperator(Path kubeconfig, Path log, String format, int healthPort)
      throws Exception {
    Path jar = Path.of("target", "podset-operator.jar");
    assertThat(jar).as("the packaged operator (run in the integration-test phase)").exists();
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-jar",
            jar.toString(),
            "--kubeconfig",
            kubeconfig.toString(),
            "--namespace",
            "sec",
            "--log-level",
            "trace",
            "--log-format",
            format,
            "--health-port",
            Integer.toString(healthPort),
            "--metrics-port",
            "0")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private Path tokenKubeconfig(String url) throws Exception {
    Path file = dir.resolve("kubeconfig-" + Math.abs(url.hashCode()));
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "%s"}}]
        users: [{name: u, user: {token: %s}}]
        contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]
        current-context: x
        """
            .formatted(url, TOKEN));
    return file;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
