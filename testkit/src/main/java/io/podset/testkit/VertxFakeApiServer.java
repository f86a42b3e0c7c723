package io.podset.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.admission.BuiltinResources;
import io.podset.testkit.internal.admission.ServiceAddresses;
import io.podset.testkit.internal.auth.AuthFilter;
import io.podset.testkit.internal.auth.BootstrapPolicy;
import io.podset.testkit.internal.controllers.CrdController;
import io.podset.testkit.internal.controllers.GarbageCollector;
import io.podset.testkit.internal.controllers.KubeletSimulator;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.ApiResponse;
import io.podset.testkit.internal.http.ApiResult;
import io.podset.testkit.internal.http.HttpServers;
import io.podset.testkit.internal.http.Kubeconfigs;
import io.podset.testkit.internal.http.RequestInfo;
import io.podset.testkit.internal.http.RequestPipeline;
import io.podset.testkit.internal.openapi.OpenApiV3;
import io.podset.testkit.internal.read.ObjectReads;
import io.podset.testkit.internal.resource.Json;
import io.podset.testkit.internal.resource.ResourceRegistry;
import io.podset.testkit.internal.resource.StatusError;
import io.podset.testkit.internal.routes.ApiRouter;
import io.podset.testkit.internal.routes.Discovery;
import io.podset.testkit.internal.store.ObjectStore;
import io.podset.testkit.internal.write.ObjectWrites;
import io.vertx.core.http.HttpServer;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The server behind {@link FakeApiServer}: Vert.x HTTP in front of the pipeline and the store. */
final class VertxFakeApiServer extends FakeApiServer {

  private static final Logger LOG = LoggerFactory.getLogger(VertxFakeApiServer.class);
  private static final List<String> INITIAL_NAMESPACES =
      List.of("default", "kube-system", "kube-public", "kube-node-lease");

  private final HttpServer http;
  private final URI url;
  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final ApiRouter router;
  private final RequestPipeline pipeline;
  private final KubeletSimulator kubelet;
  private final JournalFilter journal;
  private final FaultFilter faults;
  private final AuthFilter auth;
  private final CrdInstaller crds = new CrdInstaller(this::call);
  private final Object lock = new Object();
  // Guarded by lock.
  private @Nullable KubernetesClient client;
  // Guarded by lock: the ServiceAccount clients handed out, closed with the server.
  private final List<KubernetesClient> serviceAccountClients = new ArrayList<>();
  // Guarded by lock.
  private boolean closed;

  private VertxFakeApiServer(
      HttpServer http,
      URI url,
      ObjectStore store,
      ResourceRegistry registry,
      ApiRouter router,
      RequestPipeline pipeline,
      KubeletSimulator kubelet,
      JournalFilter journal,
      FaultFilter faults,
      AuthFilter auth) {
    this.http = http;
    this.url = url;
    this.store = store;
    this.registry = registry;
    this.router = router;
    this.pipeline = pipeline;
    this.kubelet = kubelet;
    this.journal = journal;
    this.faults = faults;
    this.auth = auth;
  }

  static FakeApiServer start(Builder options) {
    Clock clock = options.clock;
    ObjectStore store = new ObjectStore(options.historyWindow);
    ResourceRegistry registry = new ResourceRegistry();
    BuiltinResources.all(new ServiceAddresses(store)).forEach(registry::register);
    store.addCommitListener(new CrdController(registry, store));
    KubeletSimulator kubelet =
        new KubeletSimulator(
            store,
            registry.find("", "v1", "pods").orElseThrow(),
            clock,
            options.kubelet == null ? KubeletOptions.defaults() : options.kubelet);
    store.addCommitListener(kubelet);
    ObjectReads reads = new ObjectReads(store, clock);
    ObjectWrites writes = new ObjectWrites(store, clock, new SecureRandom());
    // Last listener: it writes again (nested), after the others saw the change.
    store.addCommitListener(new GarbageCollector(store, registry, writes));
    HttpServer http = HttpServers.create(options.port);
    // Discovery reports the address the server listens on, read when it is served (after listen).
    Discovery discovery =
        new Discovery(registry, options.kubernetesVersion, () -> "127.0.0.1:" + http.actualPort());
    ApiRouter router =
        new ApiRouter(
            registry,
            store,
            discovery,
            new OpenApiV3(registry, options.kubernetesVersion, clock::instant),
            reads,
            writes,
            clock,
            options.bookmarkInterval);
    RequestPipeline pipeline = new RequestPipeline(router::proceed);
    HttpServers.listen(http, pipeline, "fake API server");
    String address = "127.0.0.1:" + http.actualPort();
    Function<ApiRequest, RequestInfo> resolver = request -> RequestInfo.of(request, registry);
    FaultFilter faults = new FaultFilter(resolver, store::compact, clock);
    JournalFilter journal = new JournalFilter(resolver, clock);
    // Registers its RBAC index and the ClusterRole aggregation controller on the store.
    AuthFilter auth = AuthFilter.create(options.enforceRbac, store, registry, writes, clock);
    // The last added runs first: the journal sees the final answer, faults included; faults come
    // before authentication, as trouble on the way to a real server would.
    pipeline.addFirst(auth);
    pipeline.addFirst(faults);
    pipeline.addFirst(journal);
    VertxFakeApiServer server =
        new VertxFakeApiServer(
            http,
            URI.create("http://" + address),
            store,
            registry,
            router,
            pipeline,
            kubelet,
            journal,
            faults,
            auth);
    for (String namespace : INITIAL_NAMESPACES) {
      ObjectNode ns = Json.object();
      ns.put("apiVersion", "v1");
      ns.put("kind", "Namespace");
      ns.putObject("metadata").put("name", namespace);
      server.call("POST", "/api/v1/namespaces", ns);
    }
    if (options.enforceRbac) {
      for (BootstrapPolicy.Item item : BootstrapPolicy.items()) {
        server.call("POST", item.collectionPath(), item.object());
      }
    }
    if (options.kubelet != null) {
      kubelet.enable(options.kubelet);
    }
    LOG.debug("Fake API server listening on {}", server.url);
    return server;
  }

  /** Runs a request through the router (not the filters): for set-up done by the test itself. */
  ApiResponse call(String method, String path, JsonNode body) {
    ApiRequest request =
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("content-type", "application/json"),
            body == null ? new byte[0] : Json.bytes(body),
            false);
    ApiResult result;
    try {
      result = router.proceed(request);
    } catch (StatusError e) {
      return ApiResponse.error(e);
    }
    return (ApiResponse) result;
  }

  RequestPipeline pipeline() {
    return pipeline;
  }

  @Override
  ResourceRegistry registry() {
    return registry;
  }

  @Override
  ObjectStore store() {
    return store;
  }

  @Override
  public URI url() {
    return url;
  }

  @Override
  public Config clientConfig() {
    return new ConfigBuilder(HttpServers.clientConfig(url, "default"))
        .withOauthToken(AuthFilter.adminToken())
        .build();
  }

  @Override
  public boolean enforcesRbac() {
    return auth.enforcing();
  }

  @Override
  public Config serviceAccountConfig(String namespace, String serviceAccount) {
    requireName(namespace, "namespace");
    requireName(serviceAccount, "serviceAccount");
    ObjectNode account = Json.object();
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", serviceAccount);
    ApiResponse created =
        call("POST", "/api/v1/namespaces/" + namespace + "/serviceaccounts", account);
    if (created.status() >= 300 && created.status() != 409) {
      throw new IllegalArgumentException(
          "cannot create the ServiceAccount "
              + namespace
              + "/"
              + serviceAccount
              + ": "
              + new String(created.body(), StandardCharsets.UTF_8));
    }
    String token = auth.serviceAccountToken(namespace, serviceAccount, 3600);
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url.toString())
        .withNamespace(namespace)
        .withOauthToken(token)
        .withTrustCerts(true)
        .build();
  }

  @Override
  public KubernetesClient serviceAccountClient(String namespace, String serviceAccount) {
    KubernetesClient saClient =
        new KubernetesClientBuilder()
            .withConfig(serviceAccountConfig(namespace, serviceAccount))
            .build();
    synchronized (lock) {
      if (closed) {
        saClient.close();
        throw new IllegalStateException("the fake API server is closed");
      }
      serviceAccountClients.add(saClient);
    }
    return saClient;
  }

  @Override
  public Path writeKubeconfig(Path path, String namespace, String serviceAccount) {
    Config config = serviceAccountConfig(namespace, serviceAccount);
    return writeKubeconfig(
        path,
        "system:serviceaccount:" + namespace + ":" + serviceAccount,
        config.getOauthToken(),
        namespace);
  }

  @Override
  public Config userConfig(String user, String... groups) {
    requireName(user, "user");
    for (String group : Objects.requireNonNull(groups, "groups")) {
      requireName(group, "groups element");
    }
    return new ConfigBuilder(clientConfig())
        .withImpersonateUsername(user)
        .withImpersonateGroups(groups)
        .build();
  }

  private static void requireName(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
  }

  @Override
  public KubernetesClient client() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the fake API server is closed");
      }
      if (client == null) {
        client = newClient();
      }
      return client;
    }
  }

  @Override
  public KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(clientConfig()).build();
  }

  @Override
  public Path writeKubeconfig(Path path) {
    return writeKubeconfig(path, "fake", AuthFilter.adminToken(), "default");
  }

  private Path writeKubeconfig(Path path, String user, String token, String namespace) {
    return Kubeconfigs.write(path, Kubeconfigs.render("fake", url, null, user, token, namespace));
  }

  @Override
  public List<CustomResourceDefinition> installCrds(InputStream yaml) {
    return crds.install(yaml);
  }

  @Override
  public List<CustomResourceDefinition> installCrds(Path yaml) {
    return crds.install(yaml);
  }

  @Override
  public CustomResourceDefinition installCrd(CustomResourceDefinition crd) {
    return crds.install(crd);
  }

  @Override
  public CustomResourceDefinition installCrd(Class<? extends CustomResource<?, ?>> type) {
    return crds.install(type);
  }

  @Override
  public RequestJournal journal() {
    return journal;
  }

  @Override
  public FaultInjector faults() {
    return faults;
  }

  @Override
  public SimulatedKubelet kubelet() {
    return kubelet;
  }

  @Override
  public StoreSnapshot snapshot() {
    long revision = store.revision();
    return new StoreSnapshot(revision, store.copyObjects());
  }

  @Override
  public void restore(StoreSnapshot snapshot) {
    store.restore(Objects.requireNonNull(snapshot, "snapshot").objects());
  }

  @Override
  public long resourceVersion() {
    return store.revision();
  }

  @Override
  public void compactHistory() {
    store.compact();
  }

  @Override
  public void closeWatches() {
    store.terminateWatches();
  }

  @Override
  public int openWatches() {
    return store.watchCount();
  }

  @Override
  public void close() {
    KubernetesClient toClose;
    List<KubernetesClient> saClients;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      kubelet.disable();
      toClose = client;
      client = null;
      saClients = List.copyOf(serviceAccountClients);
      serviceAccountClients.clear();
    }
    if (toClose != null) {
      toClose.close();
    }
    saClients.forEach(KubernetesClient::close);
    HttpServers.close(http, "fake API server");
  }

  @Override
  public String toString() {
    return "FakeApiServer[" + url + "]";
  }
}
