package io.podset.runtime.manager;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podset.runtime.controller.Controller;
import io.podset.runtime.controller.ControllerBuilder;
import io.podset.runtime.controller.Controllers;
import io.podset.runtime.controller.ObjectControllerBuilder;
import io.podset.runtime.informer.SharedInformerFactory;
import io.podset.runtime.recorder.EventRecorder;
import io.podset.runtime.recorder.EventRecorders;
import io.podset.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Manager} behind {@link Manager#builder}. */
final class DefaultManager implements Manager {

  private static final Logger log = LoggerFactory.getLogger(DefaultManager.class);
  private static final Duration STOP_ON_LOSS_TIMEOUT = Duration.ofSeconds(5);

  private final KubernetesClient baseClient;
  // Whether baseClient was built by the manager (then it closes it).
  private final boolean ownsClient;
  private final KubernetesClient client;
  private final SharedInformerFactory informers;
  private final PrometheusMeterRegistry meterRegistry;
  private final EventRecorder eventRecorder;
  private final Clock clock;
  // Null without leader election.
  private final @Nullable Election election;
  // Copied from the builder, which stays mutable and may build other managers.
  private final String identity;
  private final String bindAddress;
  private final int configuredHealthPort;
  private final int configuredMetricsPort;
  private final Duration shutdownTimeout;
  private final Readiness readiness;
  // Runs controller starts and stops, which block, off the leader election thread.
  private final ExecutorService lifecycle = DaemonThreads.single("podset-manager");
  private final CompletableFuture<Void> terminated = new CompletableFuture<>();

  private final Object lock = new Object();
  // Guarded by lock.
  private final List<Supplier<Controller>> controllerSuppliers = new ArrayList<>();
  private final List<Controller> running = new ArrayList<>();
  // Guarded by lock. Built at start() so their informers warm up before leadership.
  private final List<Controller> prepared = new ArrayList<>();
  private @Nullable ProbeServers probes;
  private boolean started;
  private boolean closed;
  private boolean leading;

  DefaultManager(ManagerBuilder config, PrometheusMeterRegistry meterRegistry, String identity) {
    KubernetesClient given = config.client;
    this.ownsClient = given == null;
    this.baseClient = given != null ? given : ManagedClients.fromEnvironment();
    this.clock = config.clock;
    this.meterRegistry = meterRegistry;
    this.identity = identity;
    this.bindAddress = config.bindAddress;
    this.configuredHealthPort = config.healthPort;
    this.configuredMetricsPort = config.metricsPort;
    this.shutdownTimeout = config.shutdownTimeout;
    this.informers = SharedInformerFactory.create(baseClient, clock, meterRegistry);
    LeaderElectionConfig leaderElection = config.leaderElection;
    if (leaderElection != null) {
      Election started = new Election(leaderElection, baseClient, clock, new ElectionCallbacks());
      this.election = started;
      this.client = FencedClients.fenced(baseClient, started.elector::mayWrite, identity);
    } else {
      this.election = null;
      this.client = baseClient;
    }
    this.eventRecorder = EventRecorders.create(client, config.component, identity);
    this.readiness = new Readiness(informers, this::isLeader, terminated);
    bindMetrics();
  }

  private void bindMetrics() {
    new JvmMemoryMetrics().bindTo(meterRegistry);
    new JvmGcMetrics().bindTo(meterRegistry);
    new JvmThreadMetrics().bindTo(meterRegistry);
    new ClassLoaderMetrics().bindTo(meterRegistry);
    new ProcessorMetrics().bindTo(meterRegistry);
    new UptimeMetrics().bindTo(meterRegistry);
    if (election != null) {
      Gauge.builder("leader_election_master_status", () -> isLeader() ? 1 : 0)
          .description("Whether this process leads (1) or not (0)")
          .tag("name", election.config.leaseName())
          .register(meterRegistry);
    }
  }

  @Override
  public KubernetesClient client() {
    return client;
  }

  @Override
  public SharedInformerFactory informers() {
    return informers;
  }

  @Override
  public EventRecorder eventRecorder() {
    return eventRecorder;
  }

  @Override
  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  @Override
  public ControllerBuilder controllerBuilder() {
    return Controllers.builder(informers).meterRegistry(meterRegistry).clock(clock);
  }

  @Override
  public <P extends HasMetadata> ObjectControllerBuilder<P> controllerFor(Class<P> type) {
    return ObjectControllerBuilder.create(
        type, client, eventRecorder, this::controllerBuilder, this::addController);
  }

  @Override
  public void addController(Supplier<Controller> controller) {
    java.util.Objects.requireNonNull(controller, "controller");
    synchronized (lock) {
      if (started) {
        throw new IllegalStateException("add controllers before start()");
      }
      controllerSuppliers.add(controller);
    }
  }

  @Override
  public void start() {
    synchronized (lock) {
      if (started) {
        throw new IllegalStateException("manager already started");
      }
      started = true;
      if (!ownsClient) {
        ManagedClients.describeRetries(baseClient);
      }
      probes =
          ProbeServers.start(
              bindAddress, configuredHealthPort, configuredMetricsPort, readiness, meterRegistry);
      for (Supplier<Controller> supplier : controllerSuppliers) {
        prepared.add(supplier.get());
      }
    }
    // Every controller's informers exist now: start them so a standby's caches are warm.
    informers.startAll();
    if (election != null) {
      log.info(
          "Campaigning for lease {}/{} as {}",
          election.config.leaseNamespace(),
          election.config.leaseName(),
          identity);
      election.elector.start();
    } else {
      lifecycle.execute(this::startControllers);
    }
  }

  private void startControllers() {
    List<Supplier<Controller>> suppliers = new ArrayList<>();
    synchronized (lock) {
      if (closed) {
        return;
      }
      leading = true;
      if (prepared.isEmpty()) {
        suppliers.addAll(controllerSuppliers); // campaigning again: controllers cannot restart
      } else {
        prepared.forEach(controller -> suppliers.add(() -> controller));
        prepared.clear();
      }
    }
    for (Supplier<Controller> supplier : suppliers) {
      Controller controller;
      try {
        controller = supplier.get();
        synchronized (lock) {
          if (closed || !leading) {
            controller.close();
            return;
          }
          running.add(controller);
        }
        controller.start();
      } catch (RuntimeException e) {
        log.error("Controller failed to start: {}", e.getMessage());
        fail(e);
        return;
      }
    }
  }

  private boolean stopControllers(Duration timeout) {
    List<Controller> stopping;
    synchronized (lock) {
      leading = false;
      stopping = new ArrayList<>(running);
      stopping.addAll(prepared);
      running.clear();
      prepared.clear();
    }
    // One budget for all controllers, measured on the injected clock like everything else here.
    long deadline = clock.nanoTime() + timeout.toNanos();
    boolean drained = true;
    for (Controller controller : stopping) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - clock.nanoTime()));
      drained &= controller.shutdown(left);
    }
    return drained;
  }

  private void fail(Throwable cause) {
    if (terminated.completeExceptionally(cause)) {
      lifecycle.execute(() -> shutdown(STOP_ON_LOSS_TIMEOUT));
    }
  }

  @Override
  public boolean isLeader() {
    synchronized (lock) {
      if (election == null) {
        return started && !closed;
      }
    }
    return election.elector.isLeader();
  }

  @Override
  public int healthPort() {
    synchronized (lock) {
      return probes == null ? -1 : probes.healthPort();
    }
  }

  @Override
  public int metricsPort() {
    synchronized (lock) {
      return probes == null ? -1 : probes.metricsPort();
    }
  }

  @Override
  public CompletableFuture<Void> terminated() {
    return terminated;
  }

  @Override
  public boolean shutdown(Duration timeout) {
    synchronized (lock) {
      if (closed) {
        return true;
      }
      closed = true;
    }
    log.info("Shutting down: draining in-flight reconciles (up to {})", timeout);
    boolean drained = stopControllers(timeout);
    if (election != null) {
      election.stop();
    }
    informers.close();
    synchronized (lock) {
      if (probes != null) {
        probes.close();
      }
    }
    if (client != baseClient) {
      client.close();
    }
    if (ownsClient) {
      baseClient.close();
    }
    lifecycle.shutdown();
    terminated.complete(null);
    log.info("Shut down{}", drained ? "" : " (some reconciles were interrupted)");
    return drained;
  }

  @Override
  public void close() {
    shutdown(shutdownTimeout);
  }

  /** Leadership changes from the elector thread; the blocking work goes to the lifecycle thread. */
  private final class ElectionCallbacks implements LeaderElector.Callbacks {
    @Override
    public void startedLeading() {
      lifecycle.execute(DefaultManager.this::startControllers);
    }

    @Override
    public void stoppedLeading() {
      synchronized (lock) {
        if (closed) {
          return;
        }
      }
      lifecycle.execute(
          () -> {
            stopControllers(STOP_ON_LOSS_TIMEOUT);
            LeaderElectionConfig config = electionConfig();
            if (config.onLoss() == LeaderElectionConfig.OnLoss.EXIT) {
              fail(new LeadershipLostException(config));
            } else {
              log.info("Leadership lost; campaigning again with warm caches");
            }
          });
    }

    @Override
    public void newLeader(String identity) {
      LeaderElectionConfig config = electionConfig();
      log.info("Lease {}/{} is held by {}", config.leaseNamespace(), config.leaseName(), identity);
    }
  }

  // The callbacks run only when there is an election.
  private LeaderElectionConfig electionConfig() {
    return Objects.requireNonNull(election, "election").config;
  }
}
