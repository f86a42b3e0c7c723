package io.podset.benchmarks.server;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.podset.testkit.FakeApiServer;
import java.net.URI;
import java.util.HashMap;
import java.util.List;

/** The API servers a benchmark can start: {@code ours} (testkit) or {@code fabric8-mock} (CRUD). */
public enum ServerKind {
  /** {@link FakeApiServer} from the testkit. */
  OURS("ours"),
  /** fabric8's {@code KubernetesMockServer} in CRUD mode. */
  FABRIC8_MOCK("fabric8-mock");

  private final String contender;

  ServerKind(String contender) {
    this.contender = contender;
  }

  /** The contender name used in results. */
  public String contender() {
    return contender;
  }

  /**
   * The kind with this contender name.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static ServerKind of(String contender) {
    for (ServerKind kind : values()) {
      if (kind.contender.equals(contender)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "server must be one of "
            + List.of(OURS.contender, FABRIC8_MOCK.contender)
            + ": '"
            + contender
            + "'");
  }

  /** Starts a server of this kind on a free port of 127.0.0.1. */
  public RunningServer start(int historyWindow) {
    return switch (this) {
      case OURS -> {
        FakeApiServer server = FakeApiServer.builder().historyWindow(historyWindow).start();
        yield new RunningServer(server.url(), server::close);
      }
      case FABRIC8_MOCK -> {
        KubernetesMockServer server =
            new KubernetesMockServer(
                new Context(),
                new MockWebServer(),
                new HashMap<>(),
                new KubernetesCrudDispatcher(),
                false);
        server.init();
        String url = server.url("/");
        yield new RunningServer(
            URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url),
            server::destroy);
      }
    };
  }

  /**
   * A started server.
   *
   * @param url the base URL, without a trailing slash
   * @param stop stops it
   */
  public record RunningServer(URI url, Runnable stop) implements AutoCloseable {
    @Override
    public void close() {
      stop.run();
    }
  }
}
