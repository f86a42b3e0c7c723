package io.podset.benchmarks.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JVM options our operator runs with as {@code deploy/operator.yaml} deploys it, for a JVM
 * outside a container: the Deployment's {@code JAVA_TOOL_OPTIONS}, and what the container's limits
 * make the JVM choose (its CPU limit, as {@code -XX:ActiveProcessorCount}, picks the collector and
 * the number of compiler threads; its memory limit, as {@code -XX:MaxRAM}, sizes the heap). Read
 * from the file, so the benchmark runs what users deploy.
 */
final class DeployedJvm {

  /** The Deployment the benchmark's operator JVM copies, from the repository root. */
  static final Path DEPLOYMENT = Path.of("deploy/operator.yaml");

  private static final String CONTAINER = "operator";

  private DeployedJvm() {}

  /** The options of {@link #DEPLOYMENT}. */
  static List<String> options() throws IOException {
    return options(Files.readString(DEPLOYMENT));
  }

  /**
   * The options of a Deployment's {@value #CONTAINER} container: {@code
   * -XX:ActiveProcessorCount=<CPU limit rounded up>}, {@code -XX:MaxRAM=<memory limit in bytes>}
   * (each only if the limit is set), then the words of {@code JAVA_TOOL_OPTIONS}.
   *
   * @throws IllegalArgumentException if the YAML is no Deployment with that container
   */
  static List<String> options(String deploymentYaml) {
    Deployment deployment =
        new KubernetesSerialization().unmarshal(deploymentYaml, Deployment.class);
    Container container =
        deployment.getSpec().getTemplate().getSpec().getContainers().stream()
            .filter(c -> CONTAINER.equals(c.getName()))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the Deployment has no container '" + CONTAINER + "'"));
    List<String> options = new ArrayList<>();
    Map<String, Quantity> limits =
        container.getResources() == null ? Map.of() : container.getResources().getLimits();
    if (limits != null && limits.get("cpu") != null) {
      BigDecimal cpus = Quantity.getAmountInBytes(limits.get("cpu"));
      options.add(
          "-XX:ActiveProcessorCount="
              + Math.max(1, cpus.setScale(0, RoundingMode.CEILING).intValue()));
    }
    if (limits != null && limits.get("memory") != null) {
      options.add("-XX:MaxRAM=" + Quantity.getAmountInBytes(limits.get("memory")).toBigInteger());
    }
    for (EnvVar env : container.getEnv()) {
      if ("JAVA_TOOL_OPTIONS".equals(env.getName()) && env.getValue() != null) {
        for (String word : env.getValue().trim().split("\\s+")) {
          if (!word.isEmpty()) {
            options.add(word);
          }
        }
      }
    }
    return options;
  }
}
