package io.podset.testkit.envtest;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Renders kubeconfig YAML for a bearer-token user of one cluster. */
final class Kubeconfigs {

  private Kubeconfigs() {}

  /**
   * A kubeconfig with one cluster, one user and one current context.
   *
   * @param server the API server URL
   * @param caPem the PEM certificates the client trusts for the server
   * @param user the user's name in the file
   * @param token the bearer token
   * @param namespace the context's default namespace
   */
  static String render(URI server, String caPem, String user, String token, String namespace) {
    String ca = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8));
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: envtest
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: envtest
          context:
            cluster: envtest
            user: %s
            namespace: %s
        current-context: envtest
        """
        .formatted(server, ca, quote(user), quote(token), quote(user), quote(namespace));
  }

  private static String quote(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
