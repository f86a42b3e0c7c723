package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import io.podset.testkit.junit5.WithFakeApiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

@WithFakeApiServer(lifecycle = WithFakeApiServer.Lifecycle.PER_METHOD)
class PreflightTest {

  private static final Path CRD = Path.of("../deploy/crds/podsets.app.example.com-v1.yml");

  @Test
  void check_crdInstalled_passes(FakeApiServer server) {
    server.installCrds(CRD);

    assertThat(Preflight.check(server.client())).isNull();
  }

  @Test
  void check_crdMissing_namesTheCrdAndHowToInstallIt(FakeApiServer server) {
    assertThat(Preflight.check(server.client()))
        .contains("podsets.app.example.com")
        .contains("is not installed")
        .contains("kubectl apply -f deploy/crds/podsets.app.example.com-v1.yml");
  }

  @Test
  void check_credentialsRefusedEverywhere_saysSoBeforeAnythingElse(FakeApiServer server) {
    server.installCrds(CRD);
    server.faults().add(FaultRule.match().inject(Fault.status(401, "Unauthorized", "bad token")));

    assertThat(Preflight.check(server.client()))
        .startsWith("the API server at " + server.clientConfig().getMasterUrl())
        .contains("refused our credentials (HTTP 401)");
  }
}
