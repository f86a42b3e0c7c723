package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RealApiServerBuilderTest {

  @Test
  void controllers_emptyOrWithComma_rejectedNamingTheValue() {
    assertThatThrownBy(() -> RealApiServer.builder().controllers(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("controllers");
    assertThatThrownBy(() -> RealApiServer.builder().controllers(List.of("a,b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a,b'");
  }

  @Test
  void startTimeout_notPositive_rejected() {
    assertThatThrownBy(() -> RealApiServer.builder().startTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT0S");
  }

  @Test
  void apiServerFlag_withDashes_rejected() {
    assertThatThrownBy(() -> RealApiServer.builder().apiServerFlag("--v", "4"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'--v'");
  }

  @Test
  void crdYaml_notACrd_rejectedNamingTheSource() {
    String yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n";

    assertThatThrownBy(
            () ->
                RealApiServer.builder()
                    .crdYaml(
                        new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "cm.yaml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cm.yaml")
        .hasMessageContaining("ConfigMap");
  }

  @Test
  void crdYaml_twoDocuments_acceptsBoth() {
    String yaml = crd("foos") + "---\n" + crd("bars");

    RealApiServerBuilder builder =
        RealApiServer.builder()
            .crdYaml(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "two.yaml");

    assertThat(builder.crds())
        .extracting(crd -> crd.getMetadata().getName())
        .containsExactly("foos.example.com", "bars.example.com");
  }

  @Test
  void start_controllerManagerWithoutBinary_explainsHowToBuild() {
    ControlPlaneBinaries noKcm =
        new ControlPlaneBinaries(
            Path.of("/nonexistent/kube-apiserver"), Path.of("/nonexistent/etcd"), Optional.empty());

    assertThatThrownBy(
            () -> RealApiServer.builder().binaries(noKcm).withControllerManager().start())
        .isInstanceOf(ControlPlaneBinariesMissingException.class)
        .hasMessageContaining("kube-controller-manager")
        .hasMessageContaining(ControlPlaneBinaries.BUILD_COMMAND);
  }

  private static String crd(String plural) {
    return """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: %s.example.com
        spec:
          group: example.com
          scope: Namespaced
          names: {plural: %s, kind: K%s}
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
        """
        .formatted(plural, plural, plural);
  }
}
