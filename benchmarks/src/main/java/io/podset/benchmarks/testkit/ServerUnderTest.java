package io.podset.benchmarks.testkit;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.podset.testkit.FakeApiServer;
import java.net.URI;
import java.util.HashMap;

/** A server the benchmark drives: our fake, or fabric8's mock server in CRUD mode. */
interface ServerUnderTest extends AutoCloseable {

  /** The base URL without a trailing slash. */
  URI url();

  @Override
  void close();

  /** Which implementation. */
  enum Kind {
    PODSET_FAKE,
    FABRIC8_CRUD_MOCK;

    ServerUnderTest start() {
      return switch (this) {
        case PODSET_FAKE -> {
          FakeApiServer server = FakeApiServer.start();
          yield new ServerUnderTest() {
            @Override
            public URI url() {
              return server.url();
            }

            @Override
            public void close() {
              server.close();
            }
          };
        }
        case FABRIC8_CRUD_MOCK -> {
          KubernetesMockServer server =
              new KubernetesMockServer(
                  new Context(),
                  new MockWebServer(),
                  new HashMap<>(),
                  new KubernetesCrudDispatcher(),
                  false);
          server.init();
          String url = server.url("/");
          yield new ServerUnderTest() {
            @Override
            public URI url() {
              return URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            }

            @Override
            public void close() {
              server.destroy();
            }
          };
        }
      };
    }
  }
}
