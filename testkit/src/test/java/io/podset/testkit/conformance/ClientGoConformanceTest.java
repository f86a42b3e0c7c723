package io.podset.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client-go conformance suite ({@code testkit/clientgo}): what Go operators and kubectl rely
 * on, checked with client-go v0.34 and its defaults (protobuf bodies for built-in kinds, shared
 * informers with and without WatchList, leader election, server-side apply, the dynamic client) —
 * one dynamic test per check, the same checks on the fake and on the real kube-apiserver.
 *
 * <p>The binary is built next to the control plane by {@code testkit/kube/build-control-plane.sh};
 * without it the suite is skipped, or fails in CI ({@link ControlPlaneBinaries#required()}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientGoConformanceTest {

  /** The checks of testkit/clientgo: a check added there must be added here too. */
  private static final int CHECKS = 24;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ConformanceTarget target;
  private final List<JsonNode> results = new ArrayList<>();
  private JsonNode summary;

  @BeforeAll
  void runSuite(@TempDir Path dir) throws IOException, InterruptedException {
    Path binary = binary();
    target = ConformanceTarget.open();
    Path kubeconfig = target.writeKubeconfig(dir.resolve("kubeconfig"));
    Path log = dir.resolve("clientgo.log");
    Process process =
        new ProcessBuilder(binary.toString(), "--kubeconfig", kubeconfig.toString())
            .redirectError(log.toFile())
            .start();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("the client-go suite ran over 5 minutes");
    }
    for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node = JSON.readTree(line);
      if (node.has("check")) {
        results.add(node);
      } else {
        summary = node;
      }
    }
    assertThat(summary)
        .as("the suite's summary line (stderr: %s)", Files.readString(log))
        .isNotNull();
  }

  @AfterAll
  void close() {
    if (target != null) {
      target.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> clientGoChecks() {
    return results.stream()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.path("check").asText(),
                    () ->
                        assertThat(r.path("ok").asBoolean())
                            .as("%s: %s", r.path("check").asText(), r.path("error").asText())
                            .isTrue()));
  }

  @TestFactory
  Stream<DynamicTest> everyCheckRan() {
    return Stream.of(
        DynamicTest.dynamicTest(
            "the suite ran all " + CHECKS + " checks",
            () ->
                assertThat(summary.path("ran").asInt())
                    .as(
                        "checks the binary ran (an older binary? %s rebuilds it when"
                            + " testkit/clientgo changed)",
                        ControlPlaneBinaries.BUILD_COMMAND)
                    .isEqualTo(CHECKS)));
  }

  private static Path binary() {
    Path binary;
    try {
      binary = ControlPlaneBinaries.locate().kubeApiServer().resolveSibling("clientgo-conformance");
    } catch (ControlPlaneBinariesMissingException e) {
      return skipOrFail(e.getMessage());
    }
    if (!Files.isExecutable(binary)) {
      return skipOrFail(
          binary + " is missing: run " + ControlPlaneBinaries.BUILD_COMMAND + " to build it");
    }
    return binary;
  }

  private static Path skipOrFail(String why) {
    if (ControlPlaneBinaries.required()) {
      throw new IllegalStateException(why);
    }
    Assumptions.abort("skipped: " + why);
    throw new AssertionError("unreachable");
  }
}
