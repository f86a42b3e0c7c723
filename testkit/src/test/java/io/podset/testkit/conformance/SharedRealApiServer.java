package io.podset.testkit.conformance;

import io.podset.testkit.envtest.RealApiServer;
import io.podset.testkit.envtest.RealApiServerExtension;

/**
 * One real control plane for all conformance classes of a test JVM: a start takes seconds, and each
 * class works in its own namespace anyway. The server's shutdown hook stops it when the test JVM
 * exits. Missing binaries skip the suite, or fail it in CI (see {@link
 * RealApiServerExtension#binariesRequired()}).
 */
final class SharedRealApiServer {

  /** Guarded by the class monitor; started on first use. */
  private static RealApiServer server;

  private SharedRealApiServer() {}

  static synchronized RealApiServer get() {
    if (server == null) {
      server = RealApiServerExtension.startOrSkip(RealApiServer.builder());
    }
    return server;
  }
}
