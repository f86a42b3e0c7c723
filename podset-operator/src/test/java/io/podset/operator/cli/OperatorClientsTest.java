package io.podset.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.runtime.client.ChildJvm;
import io.podset.runtime.client.ClientsChoiceTlsServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's own clients offer ChaCha20 first when it runs as deployed (C1 only), through
 * controller-runtime's {@code KubernetesClients.builder()}: the preflight's, built like the
 * manager's in {@link OperatorRun}.
 */
class OperatorClientsTest {

  @TempDir Path dir;

  @Test
  void preflight_underC1Only_connectsWithChaCha20() throws Exception {
    try (ClientsChoiceTlsServer server = ClientsChoiceTlsServer.start(dir)) {
      String output =
          ChildJvm.run(
              List.of("-XX:TieredStopAtLevel=1"),
              ChildJvm.classPath(),
              RunPreflight.class,
              server.url());

      assertThat(server.negotiatedSuite()).as(output).isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
    }
  }

  /** Runs {@link Preflight#check} against the server at {@code args[0]}. */
  static final class RunPreflight {
    public static void main(String[] args) {
      Config config =
          new ConfigBuilder()
              .withMasterUrl(args[0])
              .withTrustCerts(true)
              .withDisableHostnameVerification(true)
              .build();
      try (KubernetesClient operatorClient =
          new KubernetesClientBuilder().withConfig(config).build()) {
        System.out.println(Preflight.check(operatorClient));
      }
      System.exit(0);
    }
  }
}
