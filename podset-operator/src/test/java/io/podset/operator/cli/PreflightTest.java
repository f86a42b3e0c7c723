package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podset.testkit.FakeApiServer;
import io.podset.testkit.Fault;
import io.podset.testkit.FaultRule;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PreflightTest {

  private FakeApiServer server;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void check_crdInstalled_passes() {
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));

    assertThat(Preflight.check(server.client())).isNull();
  }

  @Test
  void check_crdMissing_namesTheCrdAndHowToInstallIt() {
    assertThat(Preflight.check(server.client()))
        .contains("podsets.app.example.com")
        .contains("is not installed")
        .contains("kubectl apply -f deploy/crds/podsets.app.example.com-v1.yml");
  }

  @Test
  void check_credentialsRefusedEverywhere_saysSoBeforeAnythingElse() {
    server.installCrds(Path.of("../deploy/crds/podsets.app.example.com-v1.yml"));
    server.faults().add(FaultRule.match().inject(Fault.status(401, "Unauthorized", "bad token")));

    assertThat(Preflight.check(server.client()))
        .startsWith("the API server at " + server.clientConfig().getMasterUrl())
        .contains("refused our credentials (HTTP 401)");
  }
}
