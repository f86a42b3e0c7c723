package io.podset.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kubeconfig of a fake API server: one cluster at its plain-HTTP URL, one context in {@code
 * namespace}, one user with its bearer token.
 */
final class FakeKubeconfig {

  private FakeKubeconfig() {}

  /** Writes the kubeconfig to {@code path} (parents created). */
  static Path write(Path path, URI url, String user, String token, String namespace) {
    String yaml =
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: fake",
            "  cluster:",
            "    server: " + url,
            "contexts:",
            "- name: fake",
            "  context:",
            "    cluster: fake",
            "    user: \"" + user + "\"",
            "    namespace: \"" + namespace + "\"",
            "current-context: fake",
            "users:",
            "- name: \"" + user + "\"",
            "  user:",
            "    token: " + token,
            "");
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(path, yaml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write kubeconfig " + path, e);
    }
    return path;
  }
}
