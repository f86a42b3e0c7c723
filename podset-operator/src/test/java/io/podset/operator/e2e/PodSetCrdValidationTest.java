package io.podset.operator.e2e;

import io.podset.testkit.FakeApiServer;
import io.podset.testkit.junit5.WithFakeApiServer;
import org.junit.jupiter.api.BeforeAll;

@WithFakeApiServer
class PodSetCrdValidationTest extends PodSetCrdValidationContract {

  @BeforeAll
  static void installCrd(FakeApiServer server) {
    server.installCrds(CRD);
  }
}
