package io.podset.testkit.conformance;

import io.podset.testkit.envtest.ControlPlaneBinaries;
import io.podset.testkit.envtest.ControlPlaneBinariesMissingException;
import io.podset.testkit.envtest.RealApiServer;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * One real control plane for all conformance classes of a test JVM: a start takes seconds, and each
 * class works in its own namespace anyway. The server's shutdown hook stops it when the test JVM
 * exits. Missing binaries skip the suite, or fail it in CI (see {@link
 * ControlPlaneBinaries#required()}); the testkit cannot use testkit-junit5's extension, which
 * depends on it.
 */
final class SharedRealApiServer {

  /** Guarded by the class monitor; started on first use. */
  private static RealApiServer server;

  private SharedRealApiServer() {}

  static synchronized RealApiServer get() {
    if (server == null) {
      try {
        // The controller manager runs the garbage collector and the namespace controller, which
        // the deletion conformance tests need, and the ClusterRole aggregation controller.
        server =
            RealApiServer.builder()
                .controllers(
                    List.of(
                        "garbage-collector-controller",
                        "namespace-controller",
                        "clusterrole-aggregation-controller"))
                .start();
      } catch (ControlPlaneBinariesMissingException e) {
        if (ControlPlaneBinaries.required()) {
          throw e;
        }
        Assumptions.abort("skipped: " + e.getMessage());
      }
    }
    return server;
  }
}
