package io.podset.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podset.runtime.time.Clock;
import io.podset.testkit.internal.http.ApiRequest;
import io.podset.testkit.internal.http.HttpServers;
import io.podset.testkit.internal.http.Kubeconfigs;
import io.podset.testkit.internal.http.RequestInfo;
import io.podset.testkit.internal.http.RequestPipeline;
import io.podset.testkit.internal.proxy.Forwarder;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy behind {@link FaultProxy}: the fake server's Vert.x front end and request pipeline
 * (journal, then fault rules), ending in a {@link Forwarder} to the server behind instead of the
 * fake's router.
 */
final class VertxFaultProxy extends FaultProxy {

  private static final Logger LOG = LoggerFactory.getLogger(VertxFaultProxy.class);

  private final HttpServer http;
  private final URI url;
  private final Config upstream;
  private final KubernetesClient forwardingClient;
  private final FaultFilter faults;
  private final JournalFilter journal;
  private final Object lock = new Object();
  // Guarded by lock.
  private boolean closed;

  private VertxFaultProxy(
      HttpServer http,
      Config upstream,
      KubernetesClient forwardingClient,
      FaultFilter faults,
      JournalFilter journal) {
    this.http = http;
    this.url = URI.create("http://127.0.0.1:" + http.actualPort());
    this.upstream = upstream;
    this.forwardingClient = forwardingClient;
    this.faults = faults;
    this.journal = journal;
  }

  static FaultProxy start(Builder options) {
    Config upstream = options.upstream;
    String master = upstream.getMasterUrl();
    if (master == null || master.isBlank()) {
      throw new IllegalArgumentException("the upstream configuration has no master URL");
    }
    // Each request is forwarded once: a retry is the client's to make (it sees the fault).
    Config forwarding =
        new ConfigBuilder(upstream).withRequestRetryBackoffLimit(0).withUserAgent("").build();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(forwarding).build();
    Clock clock = Clock.system();
    Function<ApiRequest, RequestInfo> resolver = RequestInfo::ofAnyServer;
    FaultFilter faults = new FaultFilter(resolver, null, clock);
    JournalFilter journal = new JournalFilter(resolver, clock);
    RequestPipeline pipeline =
        new RequestPipeline(
            new Forwarder(client.getHttpClient(), master, options.requestTimeout), true);
    // The last added runs first: the journal sees the final answer, faults included.
    pipeline.addFirst(faults);
    pipeline.addFirst(journal);
    HttpServer http = HttpServers.create(options.port);
    try {
      HttpServers.listen(http, pipeline, "fault proxy");
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    VertxFaultProxy proxy = new VertxFaultProxy(http, upstream, client, faults, journal);
    LOG.debug("Fault proxy listening on {}, forwarding to {}", proxy.url, master);
    return proxy;
  }

  @Override
  public URI url() {
    return url;
  }

  @Override
  public Config clientConfig() {
    return HttpServers.clientConfig(url, namespace());
  }

  @Override
  public Path writeKubeconfig(Path path) {
    return Kubeconfigs.write(
        path, Kubeconfigs.render("proxy", url, null, "proxy", null, namespace()));
  }

  private String namespace() {
    String namespace = upstream.getNamespace();
    return namespace == null ? "default" : namespace;
  }

  @Override
  public FaultInjector faults() {
    return faults;
  }

  @Override
  public RequestJournal journal() {
    return journal;
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    faults.dropWatches(null);
    try {
      HttpServers.close(http, "fault proxy");
    } finally {
      forwardingClient.close();
    }
  }
}
