package io.podset.playground;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.operator.cli.Kubectl;
import io.podset.operator.cli.OperatorProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed article's walk-through, end to end: the packaged playground runs as its own process
 * (without its demo), and {@code kubectl} drives it exactly as the article does.
 */
class PlaygroundIT {

  private static final String EXAMPLE =
      """
      apiVersion: app.example.com/v1alpha1
      kind: PodSet
      metadata:
        name: example-podset
      spec:
        replicas: 3
      """;

  @TempDir Path dir;
  private Process operator;
  private Path kubeconfig;
  private Kubectl cli;
  private Path log;

  @BeforeEach
  void startOperator() throws Exception {
    Path jar = Path.of("target", "podset-playground.jar");
    assertThat(jar).as("the packaged playground (run in the integration-test phase)").exists();
    kubeconfig = dir.resolve("kubeconfig");
    cli = new Kubectl(kubeconfig);
    log = dir.resolve("operator.log");
    int healthPort = freePort();
    operator =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "--no-demo",
                "--kubeconfig-out",
                kubeconfig.toString(),
                "--health-port",
                Integer.toString(healthPort),
                "--metrics-port",
                "0")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    HttpClient http = HttpClient.newHttpClient();
    awaitTrue(
        "the operator to be ready",
        () -> {
          try {
            return http.send(
                        HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .statusCode()
                == 200;
          } catch (IOException e) {
            return false;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  @AfterEach
  void stopOperator() throws Exception {
    if (operator != null && operator.isAlive()) {
      operator.destroy(); // SIGTERM: graceful shutdown
      assertThat(operator.waitFor(40, TimeUnit.SECONDS)).as("graceful exit on SIGTERM").isTrue();
      assertThat(operator.exitValue())
          .as("exit status after SIGTERM\n" + Files.readString(log))
          .isIn(0, 143);
    }
  }

  @Test
  void seedWalkThrough_createScaleGetDelete() throws Exception {
    assertThat(kubectl(EXAMPLE, "create", "-f", "-"))
        .contains("podset.app.example.com/example-podset created");
    awaitTrue("3 pods", () -> podNames().size() == 3);
    awaitTrue("3/3 ready in the status", () -> jsonPath("{.status.readyReplicas}").equals("3"));

    assertThat(kubectl(null, "scale", "ps", "example-podset", "--replicas=5")).contains("scaled");
    awaitTrue("5 pods", () -> podNames().size() == 5);
    awaitTrue("5/5 ready", () -> jsonPath("{.status.readyReplicas}").equals("5"));

    List<String> table = kubectl(null, "get", "ps").lines().toList();
    List<String> header = List.of(table.get(0).trim().split("\\s+"));
    List<String> row = List.of(table.get(1).trim().split("\\s+"));
    assertThat(header).contains("NAME", "DESIRED", "CURRENT", "READY", "AGE");
    for (String column : List.of("DESIRED", "CURRENT", "READY")) {
      assertThat(row.get(header.indexOf(column))).as(column + " in\n" + table).isEqualTo("5");
    }

    assertThat(kubectl(null, "delete", "ps", "example-podset")).contains("deleted");
    awaitTrue("the PodSet gone", () -> kubectl(null, "get", "ps", "-o", "name").isBlank());
    // Its pods go with it: the fake server's garbage collector follows their owner reference.
    awaitTrue("its pods gone", () -> podNames().isEmpty());
  }

  private List<String> podNames() {
    String out =
        kubectl(null, "get", "pods", "-l", "app.example.com/podset=example-podset", "-o", "name");
    List<String> names = new ArrayList<>();
    out.lines().filter(l -> !l.isBlank()).forEach(names::add);
    return names;
  }

  private String jsonPath(String path) {
    return kubectl(null, "get", "ps", "example-podset", "-o", "jsonpath=" + path).trim();
  }

  private String kubectl(String stdin, String... args) {
    return cli.run(stdin, args);
  }

  private void awaitTrue(String what, BooleanSupplier condition) {
    new OperatorProcess(operator, log).await(what, condition);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
