package io.podset.playground;

import io.fabric8.kubernetes.client.Config;
import io.podset.api.v1alpha1.PodSet;
import io.podset.testkit.FakeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * An in-process cluster for trying the operator: the testkit's fake API server with the PodSet CRD
 * installed and a simulated kubelet that runs pods.
 */
final class EmbeddedCluster implements AutoCloseable {

  static final String CRD_RESOURCE = "META-INF/fabric8/" + PodSet.CRD_NAME + "-v1.yml";

  private final FakeApiServer server;
  private final Path kubeconfig;

  private EmbeddedCluster(FakeApiServer server, Path kubeconfig) {
    this.server = server;
    this.kubeconfig = kubeconfig;
  }

  /** Starts the server, installs the CRD and writes a kubeconfig to {@code kubeconfig}. */
  static EmbeddedCluster start(Path kubeconfig) {
    FakeApiServer server = FakeApiServer.builder().kubelet().start();
    try {
      try (InputStream crd =
          EmbeddedCluster.class.getClassLoader().getResourceAsStream(CRD_RESOURCE)) {
        if (crd == null) {
          throw new IllegalStateException(
              "the PodSet CRD is missing from the classpath: " + CRD_RESOURCE);
        }
        server.installCrds(crd);
      }
      server.writeKubeconfig(kubeconfig);
      return new EmbeddedCluster(server, kubeconfig);
    } catch (IOException e) {
      server.close();
      throw new UncheckedIOException("cannot set up the embedded cluster: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  URI url() {
    return server.url();
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  Config clientConfig() {
    return server.clientConfig();
  }

  @Override
  public void close() {
    server.close();
  }
}
