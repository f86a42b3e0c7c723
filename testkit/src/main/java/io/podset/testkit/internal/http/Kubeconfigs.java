package io.podset.testkit.internal.http;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Kubeconfig files for the testkit's servers and proxies (for {@code kubectl --kubeconfig},
 * client-go programs and anything else that reads one), written from fabric8's kubeconfig model so
 * that names and tokens need no quoting of our own.
 */
public final class Kubeconfigs {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private Kubeconfigs() {}

  /**
   * A kubeconfig with one cluster, one user and one context, the current one, all three named
   * {@code name} except the user, named {@code user}.
   *
   * @param server the server's URL
   * @param caPem the PEM certificates to trust for the server; null for a plain-HTTP server
   * @param token the user's bearer token; null for none (a proxy that authenticates upstream)
   * @param namespace the context's default namespace
   */
  public static String render(
      String name,
      URI server,
      @Nullable String caPem,
      String user,
      @Nullable String token,
      String namespace) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(namespace, "namespace");
    Config config =
        new ConfigBuilder()
            .addNewCluster()
            .withName(name)
            .withNewCluster()
            .withServer(server.toString())
            .withCertificateAuthorityData(
                caPem == null
                    ? null
                    : Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8)))
            .endCluster()
            .endCluster()
            .addNewUser()
            .withName(user)
            .withNewUser()
            .withToken(token)
            .endUser()
            .endUser()
            .addNewContext()
            .withName(name)
            .withNewContext()
            .withCluster(name)
            .withUser(user)
            .withNamespace(namespace)
            .endContext()
            .endContext()
            .withCurrentContext(name)
            .build();
    return YAML.asYaml(config);
  }

  /** Writes {@code kubeconfig} to {@code path}, creating its parent directories. */
  public static Path write(Path path, String kubeconfig) {
    Objects.requireNonNull(path, "path");
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(path, kubeconfig, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the kubeconfig " + path, e);
    }
    return path;
  }
}
