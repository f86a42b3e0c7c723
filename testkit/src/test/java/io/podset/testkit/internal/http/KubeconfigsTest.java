package io.podset.testkit.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigsTest {

  private static final String CA = "-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n";

  @Test
  void render_parsedByFabric8_givesServerTokenNamespaceAndCa() {
    Config config =
        Config.fromKubeconfig(
            Kubeconfigs.render(
                "envtest",
                URI.create("https://127.0.0.1:6443"),
                CA,
                "system:serviceaccount:ns:sa",
                "t\"ok: #1",
                "ns"));

    assertThat(config.getMasterUrl()).startsWith("https://127.0.0.1:6443");
    assertThat(config.getAutoOAuthToken()).isEqualTo("t\"ok: #1");
    assertThat(config.getNamespace()).isEqualTo("ns");
    assertThat(config.getCurrentContext().getContext().getUser())
        .isEqualTo("system:serviceaccount:ns:sa");
    assertThat(
            new String(Base64.getDecoder().decode(config.getCaCertData()), StandardCharsets.UTF_8))
        .isEqualTo(CA);
  }

  @Test
  void render_withoutCaOrToken_leavesThemOut(@TempDir Path dir) throws Exception {
    Path file =
        Kubeconfigs.write(
            dir.resolve("a/b/kubeconfig"),
            Kubeconfigs.render(
                "proxy", URI.create("http://127.0.0.1:8001"), null, "proxy", null, "default"));

    String yaml = java.nio.file.Files.readString(file);
    assertThat(yaml).doesNotContain("token").doesNotContain("certificate-authority");
    Config config = Config.fromKubeconfig(yaml);
    assertThat(config.getMasterUrl()).startsWith("http://127.0.0.1:8001");
    assertThat(config.getAutoOAuthToken()).isNull();
    assertThat(config.getNamespace()).isEqualTo("default");
  }
}
