package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podset.testkit.SimulatedKubelet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedClusterBuilderTest {

  private static final ControlPlaneBinaries WITHOUT_KWOK =
      new ControlPlaneBinaries(
          Path.of("/nonexistent/kube-apiserver"),
          Path.of("/nonexistent/etcd"),
          Optional.of(Path.of("/nonexistent/kube-controller-manager")),
          Optional.of(Path.of("/nonexistent/kube-scheduler")),
          Optional.empty());

  @Test
  void nodes_outOfRange_namesTheFieldAndValue() {
    assertThatThrownBy(() -> SimulatedCluster.builder().nodes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodes: must be between 1 and 1000, got 0");
    assertThatThrownBy(() -> SimulatedCluster.builder().nodes(1001))
        .hasMessageContaining("got 1001");
    assertThat(SimulatedCluster.builder().nodes(7).nodeCount()).isEqualTo(7);
    assertThat(SimulatedCluster.builder().nodeCount()).isEqualTo(3);
  }

  @Test
  void controllerManagerFlag_withDashes_isRefused() {
    assertThatThrownBy(
            () -> SimulatedCluster.builder().controllerManagerFlag("--kube-api-qps", "1000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "controllerManagerFlag: name must be given without dashes, got '--kube-api-qps'");
  }

  @Test
  void controllers_blankName_isRefused() {
    assertThatThrownBy(() -> SimulatedCluster.builder().controllers(List.of("*", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("controllers: invalid controller name ' '");
  }

  @Test
  void start_withoutKwok_explainsHowToBuild() {
    assertThatThrownBy(() -> SimulatedCluster.builder().binaries(WITHOUT_KWOK).start())
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("kwok not found")
        .hasMessageContaining("TEST_ASSET_KWOK")
        .hasMessageContaining(ControlPlaneBinaries.BUILD_COMMAND);
  }

  @Test
  void kwokStages_chooseFatesByTheSimulatedKubeletsAnnotation() throws IOException {
    String stages;
    try (InputStream in = ClusterComponents.class.getResourceAsStream("kwok-stages.yaml")) {
      assertThat(in).as("kwok-stages.yaml on the class path").isNotNull();
      stages = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(SimulatedCluster.FATE_KEY).isEqualTo(SimulatedKubelet.FATE_KEY);
    assertThat(stages)
        .contains(".metadata.annotations[\"" + SimulatedCluster.FATE_KEY + "\"]")
        .contains("\"" + SimulatedKubelet.PodFate.NEVER_READY.value() + "\"")
        .contains("\"" + SimulatedKubelet.PodFate.FAIL.value() + "\"");
  }
}
