package io.podset.operator.e2e;

import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.junit5.WithRealApiServer;
import org.junit.jupiter.api.BeforeAll;

@WithRealApiServer
class PodSetCrdValidationIT extends PodSetCrdValidationContract {

  @BeforeAll
  static void installCrd(RealApiServer server) {
    server.installCrds(CRD);
  }
}
