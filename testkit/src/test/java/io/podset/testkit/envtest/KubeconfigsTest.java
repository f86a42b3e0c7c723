package io.podset.testkit.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class KubeconfigsTest {

  @Test
  void render_parsedByFabric8_givesServerTokenNamespaceAndCa() {
    String ca = Pem.encode("CERTIFICATE", new byte[] {1, 2, 3});

    Config config =
        Config.fromKubeconfig(
            Kubeconfigs.render(
                URI.create("https://127.0.0.1:6443"),
                ca,
                "system:serviceaccount:ns:sa",
                "t\"ok",
                "ns"));

    assertThat(config.getMasterUrl()).startsWith("https://127.0.0.1:6443");
    assertThat(config.getAutoOAuthToken()).isEqualTo("t\"ok");
    assertThat(config.getNamespace()).isEqualTo("ns");
    assertThat(
            new String(Base64.getDecoder().decode(config.getCaCertData()), StandardCharsets.UTF_8))
        .isEqualTo(ca);
  }
}
