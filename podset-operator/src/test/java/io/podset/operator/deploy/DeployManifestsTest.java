package io.podset.operator.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code deploy/} as {@code kubectl kustomize} renders it: complete and locked down. */
class DeployManifestsTest {

  private static List<HasMetadata> objects;

  @BeforeAll
  static void render() throws Exception {
    Process kubectl =
        new ProcessBuilder("kubectl", "kustomize", Path.of("..", "deploy").toString())
            .redirectErrorStream(true)
            .start();
    String yaml = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(kubectl.exitValue()).as(yaml).isZero();
    objects =
        Arrays.stream(yaml.split("(?m)^---\\s*$"))
            .filter(doc -> !doc.isBlank())
            .map(doc -> (HasMetadata) Serialization.unmarshal(doc))
            .toList();
  }

  private static <T> T only(Class<T> type) {
    List<T> matches = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(matches).hasSize(1);
    return matches.get(0);
  }

  @Test
  void rendersEveryPiece() {
    assertThat(objects)
        .extracting(HasMetadata::getKind)
        .contains(
            "Namespace",
            "CustomResourceDefinition",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "Role",
            "RoleBinding",
            "Deployment");
  }

  @Test
  void operatorRunsNonRootReadOnlyWithoutPrivilegesAndWithLimits() {
    Deployment deployment = only(Deployment.class);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    Container container = pod.getContainers().get(0);
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
    assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getArgs()).contains("--leader-elect");
  }

  @Test
  void rbacGrantsExactlyWhatTheOperatorDoes() {
    List<PolicyRule> rules = only(ClusterRole.class).getRules();
    assertThat(rules)
        .extracting(r -> r.getApiGroups() + " " + r.getResources() + " " + r.getVerbs())
        .containsExactlyInAnyOrder(
            "[app.example.com] [podsets] [get, list, watch]",
            "[app.example.com] [podsets/status] [patch]",
            "[] [pods] [list, watch, create, delete, patch]",
            "[] [events] [create, patch]");
    assertThat(only(Role.class).getRules())
        .extracting(r -> r.getApiGroups() + " " + r.getResources() + " " + r.getVerbs())
        .containsExactly("[coordination.k8s.io] [leases] [get, create, update]");
    assertThat(rules).noneMatch(r -> r.getVerbs().contains("*") || r.getResources().contains("*"));
  }
}
