package io.podset.testkit.junit5;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.testkit.FakeApiServer;

/**
 * The JUnit 5 extension behind {@link WithFakeApiServer}: starts a server per class or per test,
 * closes it when that scope ends, and resolves {@link FakeApiServer} and {@link KubernetesClient}
 * parameters. Usable with {@code @ExtendWith} directly (defaults of the annotation apply).
 */
public final class FakeApiServerExtension
    extends ServerExtension<WithFakeApiServer, FakeApiServer> {

  /** Creates the extension (JUnit instantiates it). */
  public FakeApiServerExtension() {
    super(
        WithFakeApiServer.class,
        Defaults.class.getAnnotation(WithFakeApiServer.class),
        FakeApiServer.class);
  }

  @Override
  boolean perClass(WithFakeApiServer settings) {
    return settings.lifecycle() == WithFakeApiServer.Lifecycle.PER_CLASS;
  }

  @Override
  FakeApiServer start(WithFakeApiServer settings) {
    FakeApiServer.Builder builder = FakeApiServer.builder().historyWindow(settings.historyWindow());
    if (settings.enforceRbac()) {
      builder.enforceRbac();
    }
    FakeApiServer server = builder.start();
    try {
      readCrds(settings.crds(), (yaml, name) -> server.installCrds(yaml));
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  @Override
  KubernetesClient client(FakeApiServer server) {
    return server.client();
  }

  @WithFakeApiServer
  private static final class Defaults {}
}
