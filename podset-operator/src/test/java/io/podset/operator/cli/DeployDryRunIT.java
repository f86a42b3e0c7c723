package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.FakeApiServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl apply --dry-run=server -k deploy/} against the fake API server, as a user does.
 */
class DeployDryRunIT {

  @TempDir Path dir;
  private FakeApiServer server;
  private Kubectl cli;

  @BeforeEach
  void startServer() {
    server = FakeApiServer.builder().start();
    cli = new Kubectl(server.writeKubeconfig(dir.resolve("kubeconfig")));
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void deployManifests_serverSideDryRun_succeedsAndPersistsNothing() {
    assertThat(cli.run(null, "kustomize", "../deploy")).contains("kind: Deployment");

    // As on a real API server, a dry run cannot create objects in a namespace that does not exist
    // yet (the namespace in the same apply is not persisted either).
    Kubectl.Outcome fresh = cli.attempt(null, "apply", "--dry-run=server", "-k", "../deploy");
    assertThat(fresh.exitStatus()).as(fresh.output()).isNotZero();
    assertThat(fresh.output()).contains("namespaces \"podset-system\" not found");

    cli.run(null, "apply", "-f", "../deploy/namespace.yaml");
    String applied = cli.run(null, "apply", "--dry-run=server", "-k", "../deploy");
    for (String object :
        List.of(
            "serviceaccount/podset-operator",
            "clusterrole.rbac.authorization.k8s.io/podset-operator",
            "clusterrolebinding.rbac.authorization.k8s.io/podset-operator",
            "role.rbac.authorization.k8s.io/podset-operator-leader-election",
            "rolebinding.rbac.authorization.k8s.io/podset-operator-leader-election",
            "deployment.apps/podset-operator",
            "customresourcedefinition.apiextensions.k8s.io/podsets.app.example.com")) {
      assertThat(applied).contains(object + " created (server dry run)");
    }

    assertThat(
            cli.run(
                null,
                "get",
                "clusterrole/podset-operator",
                "clusterrolebinding/podset-operator",
                "crd/podsets.app.example.com",
                "--ignore-not-found",
                "-o",
                "name"))
        .isBlank();
    assertThat(
            cli.run(
                null,
                "get",
                "-n",
                "podset-system",
                "serviceaccounts,roles,rolebindings,deployments",
                "-o",
                "name"))
        .isBlank();
  }
}
