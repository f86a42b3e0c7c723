package io.podset.testkit.envtest;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * A real Kubernetes control plane for tests, as controller-runtime's envtest: {@code etcd} and
 * {@code kube-apiserver}, optionally {@code kube-controller-manager}, run as child processes on
 * loopback with free ports in a temporary directory. No kubelet and no scheduler run: pods stay
 * Pending unless a test writes their status.
 *
 * <p>What the server enforces: RBAC authorization ({@code --authorization-mode=RBAC}), bearer-token
 * authentication (a static admin token in group {@code system:masters}, and ServiceAccount tokens
 * signed with an RSA key generated per instance and obtained through the TokenRequest API). The
 * {@code ServiceAccount} admission plugin is disabled (no controller creates {@code default}
 * ServiceAccounts), as in envtest.
 *
 * <p>With the controller manager, only the controllers named in {@link
 * RealApiServerBuilder#controllers} run (by default the garbage collector and the namespace
 * controller), so owner-reference cascades and namespace deletion behave as in a cluster.
 *
 * <p>Instances are thread-safe. {@link #close()} stops every process and deletes the temporary
 * directory; a JVM shutdown hook does the same if a test never closes it.
 */
public interface RealApiServer extends AutoCloseable {

  /**
   * A builder for a control plane; {@link RealApiServerBuilder#start()} starts it.
   *
   * @return a builder with the binaries found by {@link ControlPlaneBinaries#locate()} (searched at
   *     start)
   */
  static RealApiServerBuilder builder() {
    return new RealApiServerBuilder();
  }

  /** The API server's URL, {@code https://127.0.0.1:<port>}. */
  URI url();

  /** The {@code gitVersion} the server reports on {@code /version}, such as {@code v1.34.4}. */
  String version();

  /**
   * A client authenticated as the cluster admin (group {@code system:masters}), default namespace
   * {@code default}; created on first use and closed with the server.
   */
  KubernetesClient client();

  /** A new admin client; the caller closes it. */
  KubernetesClient newClient();

  /** A fresh copy of the admin client configuration (bearer token, inlined CA). */
  Config clientConfig();

  /**
   * Writes the admin kubeconfig (context {@code envtest}, namespace {@code default}) for {@code
   * kubectl --kubeconfig}.
   *
   * @return {@code path}
   * @throws java.io.UncheckedIOException if it cannot be written
   */
  Path writeKubeconfig(Path path);

  /**
   * The configuration of a client that authenticates as a ServiceAccount with a token from the
   * TokenRequest API (valid one hour). The ServiceAccount is created first when it does not exist
   * (its namespace must exist). The configuration's default namespace is the ServiceAccount's.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank
   */
  Config serviceAccountConfig(String namespace, String serviceAccount);

  /**
   * Writes a kubeconfig that authenticates as a ServiceAccount, as {@link #serviceAccountConfig}
   * does, for a process or a CLI that reads a kubeconfig file.
   *
   * @return {@code path}
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank
   * @throws java.io.UncheckedIOException if it cannot be written
   */
  Path writeKubeconfig(Path path, String namespace, String serviceAccount);

  /**
   * A client for {@link #serviceAccountConfig}; closed with the server.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank
   */
  KubernetesClient serviceAccountClient(String namespace, String serviceAccount);

  /**
   * Creates or updates (server-side apply) the CRDs in a YAML or JSON stream of one or more
   * documents, and returns once each is established and its resource is served.
   *
   * @return the definitions as applied
   * @throws IllegalArgumentException if a document is not a CustomResourceDefinition
   * @throws ControlPlaneException if a CRD is not served within the start timeout
   */
  List<CustomResourceDefinition> installCrds(InputStream yaml);

  /** {@link #installCrds(InputStream)} from a file. */
  List<CustomResourceDefinition> installCrds(Path yaml);

  /** {@link #installCrds(InputStream)} for one definition. */
  CustomResourceDefinition installCrd(CustomResourceDefinition crd);

  /** Whether a controller manager was started with this server. */
  boolean controllerManagerRunning();

  /** The directory holding certificates, keys, data and the processes' logs; deleted on close. */
  Path workDirectory();

  /** Stops the processes (controller manager, API server, etcd) and deletes the work directory. */
  @Override
  void close();
}
