package io.podset.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.podset.runtime.client.ChildJvm;
import io.podset.runtime.client.ClientsChoiceTlsServer;
import io.podset.runtime.client.UsersHttpClientFactory;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS cipher suite of the clients the runtime builds itself, each in a JVM of its own (the
 * compiler flags and the class path decide): ChaCha20 first under C1 only with fabric8's Vert.x
 * client, fabric8's order otherwise.
 */
class ManagedClientsTest {

  private static final String CHACHA = "TLS_CHACHA20_POLY1305_SHA256";

  @TempDir Path dir;

  @Test
  void fromEnvironment_underC1Only_offersChaCha20First() throws Exception {
    assertThat(negotiated("managed", List.of("-XX:TieredStopAtLevel=1"), null)).isEqualTo(CHACHA);
  }

  @Test
  void fenced_underC1Only_offersChaCha20First() throws Exception {
    assertThat(negotiated("fenced", List.of("-XX:TieredStopAtLevel=1"), null)).isEqualTo(CHACHA);
  }

  @Test
  void fromEnvironment_withC2_keepsFabric8sOrder() throws Exception {
    assertThat(negotiated("managed", List.of("-XX:TieredStopAtLevel=4"), null))
        .isNotEqualTo(CHACHA);
  }

  @Test
  void fromEnvironment_underC1Only_keepsAnHttpClientTheUserAdded() throws Exception {
    Path services = dir.resolve("users-factory/META-INF/services");
    Files.createDirectories(services);
    Files.writeString(
        services.resolve(HttpClient.Factory.class.getName()),
        UsersHttpClientFactory.class.getName() + "\n");

    assertThat(
            negotiated("managed", List.of("-XX:TieredStopAtLevel=1"), dir.resolve("users-factory")))
        .isNotEqualTo(CHACHA);
  }

  /**
   * The suite a client of {@code kind} negotiated with a {@link ClientsChoiceTlsServer}, in a JVM
   * run with {@code flags} and {@code extraClassPath} (or none) before the test class path.
   */
  private String negotiated(String kind, List<String> flags, Path extraClassPath) throws Exception {
    try (ClientsChoiceTlsServer server = ClientsChoiceTlsServer.start(dir)) {
      List<String> options = new ArrayList<>(flags);
      options.addAll(
          List.of(
              "-Dkubernetes.master=" + server.url(),
              "-Dkubernetes.trust.certificates=true",
              "-Dkubernetes.disable.hostname.verification=true",
              "-Dkubernetes.auth.tryKubeConfig=false",
              "-Dkubernetes.auth.tryServiceAccount=false"));
      ChildJvm.run(
          options,
          (extraClassPath == null ? "" : extraClassPath + File.pathSeparator)
              + ChildJvm.classPath(),
          GetVersion.class,
          kind);
      return server.negotiatedSuite();
    }
  }

  /** Sends one request through the runtime's client named by {@code args[0]}. */
  static final class GetVersion {
    public static void main(String[] args) throws Exception {
      if (args[0].equals("fenced")) {
        try (KubernetesClient base =
                new KubernetesClientBuilder().withConfig(Config.autoConfigure(null)).build();
            KubernetesClient fenced = FencedClients.fenced(base, () -> true, "test")) {
          ClientsChoiceTlsServer.getVersion(fenced);
        }
      } else {
        try (KubernetesClient client = ManagedClients.fromEnvironment()) {
          ClientsChoiceTlsServer.getVersion(client);
        }
      }
      System.exit(0);
    }
  }
}
