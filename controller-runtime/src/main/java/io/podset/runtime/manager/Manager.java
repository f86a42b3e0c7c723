package io.podset.runtime.manager;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.ControllerBuilder;
import io.podset.runtime.controller.ObjectControllerBuilder;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.recorder.EventRecorder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs controllers as a process: shared caches, leader election with fencing, health and metrics
 * endpoints, events and graceful shutdown.
 *
 * <p>Lifecycle: build with {@link #builder}, register controllers, {@link #start()}, then {@link
 * #close()} (or wait on {@link #terminated()}). Caches start warming at {@link #start()} whether or
 * not this process leads, so a standby is ready to take over; controllers start only while leading.
 * When leadership is lost the fence drops first (writes through {@link #client()} are refused),
 * then the controllers stop, then the manager exits or campaigns again as configured.
 */
public interface Manager extends AutoCloseable {

  /**
   * A builder for a manager with a client of its own, configured as {@code kubectl} would be
   * ({@code $KUBECONFIG}, {@code ~/.kube/config}, or the pod's service account), with fabric8's
   * internal request retries off: every failed request reaches the controller's backoff and metrics
   * instead of being retried out of sight. In a JVM without C2 its TLS offers ChaCha20-Poly1305
   * first ({@link io.podset.runtime.client.KubernetesClients#builder()}). The manager closes the
   * client.
   */
  static ManagerBuilder builder() {
    return new ManagerBuilder(null);
  }

  /**
   * A builder for a manager talking to the cluster through {@code client}, which the caller keeps
   * and closes. Mind its retries: fabric8 retries a failed request (5xx, connection errors) up to
   * {@code requestRetryBackoffLimit} times (10 by default) before the controller sees the failure;
   * build it with {@code requestRetryBackoffLimit(0)} to leave retries to the controller's backoff.
   * The manager logs the setting once at start. The manager uses {@code client} as it is; with
   * leader election its writes go through a client rebuilt from {@code client}'s configuration
   * ({@link FencedClients#fenced}).
   */
  static ManagerBuilder builder(KubernetesClient client) {
    return new ManagerBuilder(java.util.Objects.requireNonNull(client, "client"));
  }

  /**
   * The client reconcilers write through. With leader election it refuses writes (throwing {@link
   * FencedWriteException}) whenever this process is not within its renew deadline.
   */
  KubernetesClient client();

  /** The shared informers: one cache per type and options, shared by all controllers. */
  SharedInformerFactory informers();

  /** Records Kubernetes Events through the fenced client. */
  EventRecorder eventRecorder();

  /** The registry exposed on {@code /metrics}. */
  MeterRegistry meterRegistry();

  /** A controller builder wired to this manager's informers, metrics and clock. */
  ControllerBuilder controllerBuilder();

  /**
   * A typed controller for primaries of {@code type}, registered with this manager by its {@code
   * reconcile(...)}; see {@link ObjectControllerBuilder}.
   *
   * @throws IllegalStateException (from {@code reconcile}) once the manager has started
   */
  <P extends HasMetadata> ObjectControllerBuilder<P> controllerFor(Class<P> type);

  /**
   * Registers a controller. The supplier is called each time this process becomes leader (a
   * controller cannot be restarted, so a manager that campaigns again builds a new one).
   *
   * @throws IllegalStateException once the manager has started
   */
  void addController(Supplier<Controller> controller);

  /**
   * Starts the endpoints, the informers and the campaign (or the controllers, without leader
   * election). Returns without waiting for leadership.
   *
   * @throws IllegalArgumentException if a port is in use, naming the option
   * @throws IllegalStateException if already started
   */
  void start();

  /** True while this process leads (always true without leader election once started). */
  boolean isLeader();

  /** The port {@code /healthz} and {@code /readyz} are served on, or -1 when disabled. */
  int healthPort();

  /** The port {@code /metrics} is served on, or -1 when disabled. */
  int metricsPort();

  /**
   * Completes when the manager stops: normally after {@link #close()}, exceptionally when it fails
   * (leadership lost with {@link LeaderElectionConfig.OnLoss#EXIT}, or a controller failed to
   * start).
   */
  CompletableFuture<Void> terminated();

  /**
   * Stops gracefully: controllers stop taking work and in-flight reconciles finish (up to {@code
   * timeout}), the Lease is released if configured, informers and endpoints close.
   *
   * @return true if every in-flight reconcile finished in time
   */
  boolean shutdown(Duration timeout);

  /** {@link #shutdown} with the configured shutdown timeout (default 30 s). */
  @Override
  void close();
}
