package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.FakeApiServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void captureOutput() {
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreOutput() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  private String output() {
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void help_listsEveryOptionWithItsEnvironmentVariable() {
    assertThat(Main.execute("--help")).isZero();
    assertThat(output())
        .contains("--kubeconfig", "PODSET_KUBECONFIG")
        .contains("--namespace", "PODSET_NAMESPACES")
        .contains("--workers", "PODSET_WORKERS")
        .contains("--leader-elect", "--lease-name", "--lease-namespace")
        .contains("--metrics-port", "--health-port", "--log-format", "--log-level")
        .doesNotContain("--embedded", "--demo");
  }

  @Test
  void badValues_exitWithUsageErrorsNamingTheOption() {
    assertThat(Main.execute("--workers", "0")).isEqualTo(2);
    assertThat(output()).contains("--workers must be between 1 and 1024, got 0");

    assertThat(Main.execute("--health-port", "70000")).isEqualTo(2);
    assertThat(output()).contains("--health-port must be between 0 and 65535, got 70000");

    assertThat(Main.execute("--namespace", "Bad_NS")).isEqualTo(2);
    assertThat(output()).contains("--namespace must be a DNS-1123 label, got 'Bad_NS'");

    assertThat(Main.execute("--log-format", "xml")).isEqualTo(2);
    assertThat(output()).contains("--log-format").contains("xml");
  }

  @Test
  void embeddedMode_isNotPartOfTheProduct() {
    // It moved to podset-playground, with the testkit; the operator refuses the old options.
    assertThat(Main.execute("--embedded", "--demo")).isEqualTo(2);
    assertThat(output()).contains("Unknown options: '--embedded', '--demo'");
  }

  @Test
  void unreachableApiServer_isOneClearMessageAndExit1(@TempDir Path dir) throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Path kubeconfig = writeKubeconfig(dir, "http://127.0.0.1:" + closedPort);

    assertThat(
            Main.execute(
                "--kubeconfig", kubeconfig.toString(), "--health-port", "0", "--metrics-port", "0"))
        .isEqualTo(1);
    assertThat(output()).contains("cannot reach the API server at http://127.0.0.1:" + closedPort);
  }

  @Test
  void missingCrd_isOneClearMessageAndExit1(@TempDir Path dir) {
    try (FakeApiServer server = FakeApiServer.start()) {
      Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));

      assertThat(
              Main.execute(
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "--health-port",
                  "0",
                  "--metrics-port",
                  "0"))
          .isEqualTo(1);
      assertThat(output())
          .contains("the PodSet CRD (podsets.app.example.com) is not installed")
          .contains("kubectl apply -f deploy/crds/");
    }
  }

  @Test
  void unreadableKubeconfig_namesTheFile(@TempDir Path dir) {
    Path missing = dir.resolve("nope");
    assertThat(
            Main.execute(
                "--kubeconfig", missing.toString(), "--health-port", "0", "--metrics-port", "0"))
        .isEqualTo(1);
    assertThat(output()).contains("--kubeconfig " + missing + ": cannot read");
  }

  private static Path writeKubeconfig(Path dir, String url) throws Exception {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "%s"}}]
        users: [{name: u, user: {token: not-a-secret}}]
        contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]
        current-context: x
        """
            .formatted(url));
    return file;
  }
}
