package io.podset.benchmarks.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DeployedJvmTest {

  private static String deployment(String container, String limits, String javaToolOptions) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: op
        spec:
          template:
            spec:
              containers:
                - name: sidecar
                  env:
                    - name: JAVA_TOOL_OPTIONS
                      value: "-Xint"
                - name: %s
                  env:
                    - name: OTHER
                      value: "x"
                    - name: JAVA_TOOL_OPTIONS
                      value: "%s"
                  resources:
                    limits:
        %s
        """
        .formatted(container, javaToolOptions, limits);
  }

  @Test
  void options_areTheLimitsAsTheJvmSeesThem_thenJavaToolOptions() {
    String yaml =
        deployment(
            "operator",
            "              cpu: 1500m\n              memory: 512Mi",
            " -XX:MaxRAMPercentage=75  -XX:+ExitOnOutOfMemoryError ");

    assertThat(DeployedJvm.options(yaml))
        .containsExactly(
            "-XX:ActiveProcessorCount=2",
            "-XX:MaxRAM=536870912",
            "-XX:MaxRAMPercentage=75",
            "-XX:+ExitOnOutOfMemoryError");
  }

  @Test
  void options_refuseADeploymentWithoutTheOperatorContainer() {
    String yaml = deployment("other", "              cpu: 1", "");

    assertThatThrownBy(() -> DeployedJvm.options(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no container 'operator'");
  }

  @Test
  void options_ofTheRepositorysDeployment_includeItsLimits() throws Exception {
    Path deployment = Path.of("..").resolve(DeployedJvm.DEPLOYMENT);

    assertThat(DeployedJvm.options(Files.readString(deployment)))
        .contains("-XX:ActiveProcessorCount=1", "-XX:MaxRAM=536870912");
  }
}
