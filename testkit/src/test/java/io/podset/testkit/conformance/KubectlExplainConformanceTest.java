package io.podset.testkit.conformance;

import static io.podset.testkit.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kubectl explain} for built-in kinds and for the operator's PodSet CRD (from {@code
 * deploy/crds}), compared with what kubectl printed against kube-apiserver 1.34.4 (the files under
 * {@code explain/}): the fake's OpenAPI must make kubectl print the same. kubectl must be
 * installed, as for {@code KubectlIT}; the installed dispatcher runs its 1.32 for a 1.34 server.
 */
class KubectlExplainConformanceTest extends ConformanceTestBase {

  @TempDir static Path dir;
  private Path kubeconfig;

  @BeforeAll
  void installPodSetCrd() {
    target.installCrd(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    await(
        "the PodSet CRD's OpenAPI document",
        () -> get("/openapi/v3").body().path("paths").has("apis/app.example.com/v1alpha1"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "pods.spec.containers.ports",
        "deployments.spec.strategy",
        "podsets.spec",
        "ps.spec.replicas"
      })
  void explain_printsWhatItPrintsAgainstTheRealServer(String field) throws IOException {
    if (kubeconfig == null) {
      kubeconfig = target.writeKubeconfig(dir.resolve("kubeconfig"));
    }
    String expected =
        new String(
            getClass().getResourceAsStream("/explain/" + field + ".txt").readAllBytes(),
            StandardCharsets.UTF_8);
    assertThat(explain(field)).isEqualTo(expected);
  }

  private String explain(String field) {
    List<String> command = new ArrayList<>();
    command.add(kubectl().toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.add("--cache-dir=" + dir.resolve("cache"));
    command.add("explain");
    command.add(field);
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectError(dir.resolve("kubectl-stderr.txt").toFile())
              .start();
      String out;
      try (var in = process.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
      assertThat(process.exitValue())
          .as(
              "kubectl explain %s; stderr:%n%s",
              field, Files.readString(dir.resolve("kubectl-stderr.txt")))
          .isZero();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path kubectl() {
    String path = System.getenv().getOrDefault("PATH", "");
    return Stream.concat(
            Stream.of(Path.of("/usr/bin/kubectl")),
            Stream.of(path.split(File.pathSeparator))
                .filter(p -> !p.isEmpty())
                .map(p -> Path.of(p, "kubectl")))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(() -> new AssertionError("kubectl is required and was not found in PATH"));
  }
}
