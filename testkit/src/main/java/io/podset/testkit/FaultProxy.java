package io.podset.testkit;

import io.fabric8.kubernetes.client.Config;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A reverse proxy in front of any Kubernetes API server (a real kube-apiserver, a cluster, or a
 * {@link FakeApiServer}) that applies the same {@link FaultRule}s as the fake server to the traffic
 * passing through, and keeps the same {@link RequestJournal}: status codes with {@code
 * Retry-After}, latency, dropped watches, connections broken in the middle of an answer or of a
 * watch event ({@link Fault#cutResponse()}), held-back and delayed watch events.
 *
 * <pre>{@code
 * try (FaultProxy proxy = FaultProxy.forwardingTo(realServer.clientConfig()).start();
 *     KubernetesClient client =
 *         new KubernetesClientBuilder().withConfig(proxy.clientConfig()).build()) {
 *   proxy.faults().add(FaultRule.match().verbs("list").resource("pods")
 *       .inject(Fault.tooManyRequests(Duration.ofSeconds(1))));
 *   ...
 *   proxy.journal().assertCount(RequestMatcher.verb("list").resource("pods").status(429), 1);
 * }
 * }</pre>
 *
 * <p>Clients speak plain HTTP/1.1 to the proxy on 127.0.0.1 without credentials; the proxy speaks
 * to the server behind as the configuration given to {@link #forwardingTo} says (its URL, TLS
 * trust, client certificate or token), so every request reaches the server as that user (an {@code
 * Impersonate-User} header a client sends is passed on). Requests are resolved to verb, resource,
 * namespace and name as kube-apiserver resolves them without knowing its resources: after {@code
 * namespaces/{ns}/} a segment names a namespaced resource unless it is {@code status} or {@code
 * finalize}.
 *
 * <p>What differs from the fake: {@link Fault#compactHistory()} is refused (the proxy cannot make
 * the server forget its history; the server's own compaction and watch cache decide when a resume
 * gets 410); {@code exec}, {@code attach}, {@code portforward} and followed logs are not streamed;
 * watches are always asked of the server as JSON lines. Event faults act on the events as they
 * leave the proxy: an event held back has already left the server.
 *
 * <p>Thread-safe. Close it to stop the proxy; open watches through it end.
 */
public abstract sealed class FaultProxy implements AutoCloseable permits VertxFaultProxy {

  FaultProxy() {}

  /**
   * A builder for a proxy in front of the server that {@code upstream} configures a client for (its
   * master URL, TLS and credentials; its retries are not used: the proxy forwards each request
   * once).
   */
  public static Builder forwardingTo(Config upstream) {
    return new Builder(Objects.requireNonNull(upstream, "upstream"));
  }

  /** The proxy's base URL, for example {@code http://127.0.0.1:39211}. */
  public abstract URI url();

  /**
   * A fabric8 configuration for clients of the proxy: its URL, no credentials, the upstream
   * configuration's default namespace.
   */
  public abstract Config clientConfig();

  /**
   * Writes a kubeconfig pointing at the proxy, for {@code kubectl --kubeconfig} or any program that
   * reads one (a Go operator, a script). It holds no credentials: the proxy speaks to the server as
   * the user of the configuration given to {@link #forwardingTo}. Its context's namespace is that
   * of {@link #clientConfig()}.
   *
   * @return {@code path}
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  public abstract Path writeKubeconfig(Path path);

  /** The fault rules applied to requests and watches passing through. */
  public abstract FaultInjector faults();

  /** The record of the requests that passed through, with the status the client saw. */
  public abstract RequestJournal journal();

  /** Stops listening and ends every open watch; idempotent. */
  @Override
  public abstract void close();

  /** Options of a proxy. Not thread-safe; each setter validates at once. */
  public static final class Builder {
    final Config upstream;
    int port;
    Duration requestTimeout = Duration.ofSeconds(60);

    private Builder(Config upstream) {
      this.upstream = upstream;
    }

    /**
     * The port to listen on; 0 (the default) for a free one.
     *
     * @throws IllegalArgumentException if not in 0..65535
     */
    public Builder port(int value) {
      if (value < 0 || value > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535: " + value);
      }
      this.port = value;
      return this;
    }

    /**
     * How long the proxy waits for the server's complete answer to a request (for a watch: for its
     * headers) before answering 504 itself. Default 60 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder requestTimeout(Duration value) {
      Objects.requireNonNull(value, "value");
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be positive: " + value);
      }
      this.requestTimeout = value;
      return this;
    }

    /**
     * Starts the proxy.
     *
     * @throws IllegalArgumentException if the upstream configuration has no master URL
     * @throws IllegalStateException if it cannot listen
     */
    public FaultProxy start() {
      return VertxFaultProxy.start(this);
    }
  }
}
