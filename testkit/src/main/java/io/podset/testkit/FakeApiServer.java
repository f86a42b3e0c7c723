package io.podset.testkit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.store.ObjectStore;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP/1.1 server on 127.0.0.1 that speaks the Kubernetes API in JSON, for tests: the
 * fabric8 client and {@code kubectl} use it as they would a cluster. See the package documentation
 * for what it emulates and what it does not.
 *
 * <p>Thread-safe. Close it to stop the server and the client it handed out.
 *
 * <pre>{@code
 * try (FakeApiServer server = FakeApiServer.start()) {
 *   server.installCrds(Path.of("deploy/crd.yaml"));
 *   KubernetesClient client = server.client();
 *   ...
 * }
 * }</pre>
 */
public abstract sealed class FakeApiServer implements AutoCloseable permits VertxFakeApiServer {

  FakeApiServer() {}

  /** Starts a server with default options on a free port. */
  public static FakeApiServer start() {
    return builder().start();
  }

  /** A builder for a server with non-default options. */
  public static Builder builder() {
    return new Builder();
  }

  /** The base URL, for example {@code http://127.0.0.1:39211}. */
  public abstract URI url();

  /**
   * A fabric8 client for this server, created on first use and closed with the server. Its default
   * namespace is {@code default}.
   */
  public abstract KubernetesClient client();

  /** A new fabric8 client for this server; the caller closes it. */
  public abstract KubernetesClient newClient();

  /**
   * The fabric8 configuration used by {@link #client()}: URL, namespace {@code default}, the
   * admin's bearer token (user {@code fake-admin}, group {@code system:masters}).
   */
  public abstract Config clientConfig();

  /** Whether RBAC decides requests ({@link Builder#enforceRbac()}). */
  public abstract boolean enforcesRbac();

  /**
   * The configuration of a client that authenticates as a ServiceAccount, with a token from the
   * TokenRequest API (valid one hour), as {@code RealApiServer.serviceAccountConfig} does: the
   * ServiceAccount is created first when it does not exist (its namespace must exist); the
   * configuration's default namespace is the ServiceAccount's. The token authenticates as {@code
   * system:serviceaccount:<namespace>:<name>}, groups {@code system:serviceaccounts}, {@code
   * system:serviceaccounts:<namespace>} and {@code system:authenticated}, while the ServiceAccount
   * exists. Without {@link Builder#enforceRbac()} it may do anything.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank or the ServiceAccount cannot be created
   */
  public abstract Config serviceAccountConfig(String namespace, String serviceAccount);

  /**
   * A client for {@link #serviceAccountConfig}; closed with the server.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank or the ServiceAccount cannot be created
   */
  public abstract KubernetesClient serviceAccountClient(String namespace, String serviceAccount);

  /**
   * Writes a kubeconfig that authenticates as a ServiceAccount, as {@link #serviceAccountConfig}
   * does, for {@code kubectl} or a process that reads a kubeconfig.
   *
   * @return {@code path}
   * @throws IllegalArgumentException if a name is blank or the ServiceAccount cannot be created
   * @throws java.io.UncheckedIOException if it cannot be written
   */
  public abstract Path writeKubeconfig(Path path, String namespace, String serviceAccount);

  /**
   * The admin's configuration impersonating {@code user} with {@code groups} ({@code
   * Impersonate-User} and {@code Impersonate-Group} headers): requests are authorized as that user
   * (in {@code system:authenticated} as well), as kubectl's {@code --as}/{@code --as-group}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if a name is blank
   */
  public abstract Config userConfig(String user, String... groups);

  /**
   * Writes a kubeconfig pointing at this server (context {@code fake}, namespace {@code default})
   * for {@code kubectl --kubeconfig}.
   *
   * @return {@code path}
   */
  public abstract Path writeKubeconfig(Path path);

  /**
   * Creates (or replaces) the CRDs in a YAML or JSON stream of one or more documents; other kinds
   * in the stream are rejected. Returns once the custom resources are served.
   *
   * @return the stored definitions
   * @throws IllegalArgumentException if a document is not a valid CustomResourceDefinition
   */
  public abstract List<CustomResourceDefinition> installCrds(InputStream yaml);

  /** {@link #installCrds(InputStream)} from a file. */
  public abstract List<CustomResourceDefinition> installCrds(Path yaml);

  /** Creates (or replaces) one CRD. */
  public abstract CustomResourceDefinition installCrd(CustomResourceDefinition crd);

  /**
   * Creates (or replaces) a CRD derived from a fabric8 custom resource class ({@code @Group},
   * {@code @Version}, {@code @Kind}, {@code @Plural}, {@code @ShortNames}, {@code Namespaced}),
   * with a schema that keeps unknown fields and a status subresource when the class has a status
   * type.
   */
  public abstract CustomResourceDefinition installCrd(Class<? extends CustomResource<?, ?>> type);

  /**
   * The journal of the requests this server answered (not its own set-up writes, nor the simulated
   * kubelet's).
   */
  public abstract RequestJournal journal();

  /** Fault injection: rules that make requests fail, slow down, or hold back watch events. */
  public abstract FaultInjector faults();

  /**
   * The simulated kubelet: disabled unless the builder enabled it ({@link Builder#kubelet()}) or a
   * test calls {@link SimulatedKubelet#enable()}.
   */
  public abstract SimulatedKubelet kubelet();

  /** A copy of every stored object, for {@link #restore}. */
  public abstract StoreSnapshot snapshot();

  /**
   * Makes the store hold exactly the snapshot's objects again. The differences are written as
   * ordinary changes (new resourceVersions, watch events, history), so watching clients follow;
   * restored objects keep their uid and timestamps.
   */
  public abstract void restore(StoreSnapshot snapshot);

  /** The newest resourceVersion (the global revision). */
  public abstract long resourceVersion();

  /** Forgets the change history: every watch resume or exact list at an older revision gets 410. */
  public abstract void compactHistory();

  /**
   * Ends every open watch, as an API server restart would; clients watch again from their last
   * resourceVersion (which gets 410 if {@link #compactHistory()} ran since).
   */
  public abstract void closeWatches();

  /** The number of watches currently open. */
  public abstract int openWatches();

  /** Stops the server, ends open watches and closes {@link #client()}. Idempotent. */
  @Override
  public abstract void close();

  /** The resource types served, for {@link ReconcileHarness} (not API). */
  abstract ResourceRegistry registry();

  /** The store, for {@link ReconcileHarness} to follow commits (not API). */
  abstract ObjectStore store();

  /**
   * Options of a server. Each setter validates its argument at once.
   *
   * <p>Not thread-safe; use from one thread.
   */
  public static final class Builder {
    int historyWindow = 10_000;
    Duration bookmarkInterval = Duration.ofSeconds(10);
    Clock clock = Clock.system();
    String kubernetesVersion = "v1.34.4";
    int port;
    @Nullable KubeletOptions kubelet;
    boolean enforceRbac;

    Builder() {}

    /**
     * How many changes are kept for watch resumption and consistent pagination; older revisions get
     * 410 Expired. Default 10000.
     *
     * @throws IllegalArgumentException if {@code changes} is not positive
     */
    public Builder historyWindow(int changes) {
      if (changes < 1) {
        throw new IllegalArgumentException("historyWindow must be positive: " + changes);
      }
      this.historyWindow = changes;
      return this;
    }

    /**
     * How often watches with {@code allowWatchBookmarks=true} receive a BOOKMARK. Default 10 s.
     *
     * @throws IllegalArgumentException if {@code interval} is not positive
     */
    public Builder bookmarkInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("bookmarkInterval must be positive: " + interval);
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /**
     * The clock for timestamps, bookmarks and watch timeouts; a {@code ManualClock} makes them
     * deterministic. Default: the system clock.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The version reported by {@code /version}. Default {@code v1.34.4}, the release of the real
     * control plane the conformance suite judges the fake by (kubectl and client-go see the same
     * server version on both).
     *
     * @throws IllegalArgumentException if it is not of the form {@code v1.N.P}
     */
    public Builder kubernetesVersion(String version) {
      Objects.requireNonNull(version, "version");
      if (!version.matches("v1\\.\\d+\\.\\d+.*")) {
        throw new IllegalArgumentException("kubernetesVersion must look like v1.34.4: " + version);
      }
      this.kubernetesVersion = version;
      return this;
    }

    /**
     * The port to listen on; 0 (default) picks a free one.
     *
     * @throws IllegalArgumentException if outside 0..65535
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535: " + port);
      }
      this.port = port;
      return this;
    }

    /** Starts the server with its {@link SimulatedKubelet} enabled, with default options. */
    public Builder kubelet() {
      return kubelet(KubeletOptions.defaults());
    }

    /** Starts the server with its {@link SimulatedKubelet} enabled, with {@code options}. */
    public Builder kubelet(KubeletOptions options) {
      this.kubelet = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * Authenticates and authorizes every request as kube-apiserver with {@code
     * --authorization-mode=RBAC} does, from the Roles, ClusterRoles and bindings in the server's
     * store: 401 for an unknown token, 403 Forbidden with the real message for a refused request.
     * The server starts with the default ClusterRoles and bindings that matter to clients ({@code
     * cluster-admin} for {@code system:masters}, discovery and the review APIs for every
     * authenticated user). The fake's own {@link #client()} and kubeconfig stay the admin; use
     * {@link FakeApiServer#serviceAccountConfig} or {@link FakeApiServer#userConfig} for others.
     * Off by default: every request may do anything.
     */
    public Builder enforceRbac() {
      this.enforceRbac = true;
      return this;
    }

    /**
     * Starts the server.
     *
     * @throws IllegalStateException if it cannot listen
     */
    public FakeApiServer start() {
      return VertxFakeApiServer.start(this);
    }
  }
}
