package io.podset.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RbacGrantsTest {

  @TempDir Path dir;

  private static final String CLUSTER_ROLE =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: op}
      rules:
        - apiGroups: ["apps"]
          resources: ["deployments"]
          verbs: ["get", "list", "watch", "patch"]
        - apiGroups: [""]
          resources: ["pods/status"]
          verbs: ["patch"]
      """;
  private static final String CLUSTER_BINDING =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: op}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
      subjects: [{kind: ServiceAccount, name: op, namespace: op-system}]
      """;
  private static final String ROLE_AND_BINDING =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: {name: leases, namespace: op-system}
      rules: [{apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["*"]}]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: leases, namespace: op-system}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: leases}
      subjects: [{kind: ServiceAccount, name: op, namespace: op-system}]
      """;
  private static final String OTHER_ACCOUNT =
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: other}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything}
      subjects: [{kind: ServiceAccount, name: op, namespace: elsewhere}]
      """;

  @Test
  void grants_areTheRulesBoundToTheServiceAccount_clusterWideOrInTheBindingsNamespace()
      throws IOException {
    RbacGrants grants = read();
    assertThat(grants.granted())
        .extracting(RbacGrants.Permission::toString)
        .containsExactlyInAnyOrder(
            "get apps/deployments",
            "list apps/deployments",
            "watch apps/deployments",
            "patch apps/deployments",
            "patch pods/status",
            "* coordination.k8s.io/leases in op-system");
    assertThat(grants.allows(perm("update", "coordination.k8s.io", "leases", "op-system")))
        .isTrue();
    assertThat(grants.allows(perm("update", "coordination.k8s.io", "leases", "default")))
        .as("a Role's grant is only in its namespace")
        .isFalse();
    assertThat(grants.allows(perm("patch", "apps", "deployments", "any"))).isTrue();
    assertThat(grants.allows(perm("patch", "", "pods", "any"))).as("status only").isFalse();
  }

  @Test
  void check_namesRefusedRequests_unusedGrants_andAnApplyThatCreatedNeedsCreate()
      throws IOException {
    RbacGrants.Check check =
        read()
            .check(
                List.of(
                    request(
                        "GET",
                        "list",
                        "/apis/apps/v1/deployments",
                        "apps",
                        "deployments",
                        null,
                        null,
                        200),
                    request("GET", "get", "/apis", null, null, null, null, 200),
                    request(
                        "PATCH",
                        "patch",
                        "/apis/apps/v1/namespaces/a/deployments/web",
                        "apps",
                        "deployments",
                        "a",
                        "web",
                        201),
                    request(
                        "PUT",
                        "update",
                        "/apis/coordination.k8s.io/v1/namespaces/op-system/" + "leases/op",
                        "coordination.k8s.io",
                        "leases",
                        "op-system",
                        "op",
                        200),
                    request("GET", "get", "/metrics", null, null, null, null, 200)));
    assertThat(check.refused())
        .containsExactly(
            "#3 patch apps/deployments a/web -> 201 (0 ms) needs create apps/deployments in a",
            "#5 get /metrics -> 200 (0 ms) (not a discovery URL)");
    assertThat(check.unused())
        .extracting(RbacGrants.Permission::toString)
        .containsExactlyInAnyOrder(
            "get apps/deployments", "watch apps/deployments", "patch pods/status");
    assertThat(check.used())
        .extracting(RbacGrants.Permission::toString)
        .contains("create apps/deployments in a", "update coordination.k8s.io/leases in op-system");
  }

  @Test
  void aBindingOfAMissingRole_isNamed() throws IOException {
    Files.writeString(dir.resolve("binding.yaml"), CLUSTER_BINDING);
    assertThatThrownBy(() -> RbacGrants.read(dir, "op", "op-system"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the ClusterRole op bound by op is not in " + dir);
  }

  private RbacGrants read() throws IOException {
    Files.writeString(dir.resolve("cluster-role.yaml"), CLUSTER_ROLE);
    Files.writeString(dir.resolve("cluster-role-binding.yml"), CLUSTER_BINDING);
    Files.writeString(dir.resolve("leases.yaml"), ROLE_AND_BINDING);
    Files.writeString(dir.resolve("other.yaml"), OTHER_ACCOUNT);
    Files.writeString(dir.resolve("README.md"), "not read");
    return RbacGrants.read(dir, "op", "op-system");
  }

  private static RbacGrants.Permission perm(String verb, String group, String res, String ns) {
    return new RbacGrants.Permission(verb, group, res, ns);
  }

  private long sequence;

  private RequestRecord request(
      String method,
      String verb,
      String path,
      String group,
      String resource,
      String namespace,
      String name,
      int status) {
    return new RequestRecord(
        ++sequence,
        Instant.EPOCH,
        verb,
        method,
        path,
        "",
        group,
        resource,
        null,
        namespace,
        name,
        null,
        null,
        status,
        Duration.ZERO,
        null);
  }
}
